import ChatTestSupport
import Foundation
import Testing

/// A stdio MCP server written with the PyPI `mcp` SDK (2.3.0, `MCPServer`), serving both eras: the
/// prompts `review_code(code, language?)` and `describe_pixel()` (a text and an image), the
/// resources `config://app` (text) and `image://pixel` (a PNG) and the template `notes://{name}`,
/// and the tool `reserve(title)`, which asks "How many copies?" (a form, elicitation) before it
/// answers; and, in the initialize era, the tool `connect`, which asks the person to open a page
/// (URL elicitation); the tool `link` answers with a `resource_link` to `config://app`.
/// `protocol_version` pins the era (nil: chat finds it).
func demoServerConfig(_ chat: ChatBinary, pinned: String? = nil, extra: String = "") throws -> String {
    let venv = try MCPTestVenv.directory.get()
    let script = chat.home + "/demo_server.py"
    try #"""
    import base64
    from typing import Annotated
    from pydantic import BaseModel
    from mcp.server import MCPServer
    from mcp.server.mcpserver import Context, Image, Elicit, ElicitationResult, AcceptedElicitation, Resolve
    from mcp.server.mcpserver.prompts.base import UserMessage
    from mcp import types

    server = MCPServer("demo", version="1.0.0")
    PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")

    @server.prompt()
    def review_code(code: str, language: str = "Python") -> str:
        """Review a piece of code."""
        return f"Please review this {language} code:\n\n{code}"

    @server.prompt()
    def describe_pixel() -> list:
        """Describe a pixel."""
        return [UserMessage("What colour is this pixel?"), UserMessage(Image(data=PNG, format="png"))]

    @server.resource("config://app", mime_type="text/plain")
    def app_config() -> str:
        """The app configuration."""
        return "theme=dark"

    @server.resource("image://pixel", mime_type="image/png")
    def pixel() -> bytes:
        """A red pixel."""
        return PNG

    @server.resource("notes://{name}")
    def note(name: str) -> str:
        """A note by name."""
        return f"note {name}"

    class Quantity(BaseModel):
        copies: int

    async def ask_quantity() -> Elicit[Quantity]:
        return Elicit("How many copies?", Quantity)

    @server.tool()
    async def reserve(title: str, quantity: Annotated[ElicitationResult[Quantity], Resolve(ask_quantity)]) -> str:
        """Reserves a book; asks how many copies."""
        if isinstance(quantity, AcceptedElicitation):
            return f"Reserved {quantity.data.copies} of {title}."
        return "Nothing reserved."

    @server.tool()
    async def connect(ctx: Context) -> str:
        """Asks the person to open a page (the initialize era's URL elicitation)."""
        result = await ctx.elicit_url("Sign in to Example to go on.", "https://example.test/connect?session=1", "id-1")
        return f"page: {result.action}"

    @server.tool()
    def link() -> list:
        """Points at the app configuration."""
        return [types.ResourceLink(type="resource_link", uri="config://app", name="app_config",
                                   description="The app configuration.", mimeType="text/plain")]

    server.run()
    """#.write(toFile: script, atomically: true, encoding: .utf8)
    let pin = pinned.map { #", "protocol_version": "\#($0)""# } ?? ""
    return try chat.writeConfig(
        #"{"mcp_servers": {"demo": {"command": "\#(venv)/bin/python3", "args": ["\#(script)"]\#(pin)}\#(extra)}}"#)
}
