import ChatDomain

/// The servers' prompts and resources, for the person.
extension MCPTools: ToolServerCatalogue {}
