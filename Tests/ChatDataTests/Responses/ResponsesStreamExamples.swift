/// Responses streams as servers send them. OpenAI's are put together from the documented example
/// of each event (openapi `x-oaiMeta.example`, as copied in /work/notes/responses-api.md §5),
/// with `event:` and `data:` lines and a blank line after each event; where the note has no
/// example of an event, or elides part of one (`…`), the comment says what was filled in.
/// LiteLLM's are captures from its proxy (notes/scripts/capture-litellm-*.txt): `data:` lines
/// only, ending with `data: [DONE]`.
enum ResponsesStreamExamples {
    /// The documented `response.completed` (its usage all zeros), verbatim.
    static let completed = #"""
        event: response.completed
        data: {"type":"response.completed","response":{"id":"resp_123","object":"response","created_at":1740855869,"status":"completed","completed_at":1740855870,"error":null,"incomplete_details":null,"input":[],"instructions":null,"max_output_tokens":null,"model":"gpt-4o-mini-2024-07-18","output":[{"id":"msg_123","type":"message","role":"assistant","content":[{"type":"output_text","text":"In a shimmering forest …","annotations":[]}]}],"previous_response_id":null,"reasoning_effort":null,"store":false,"temperature":1,"text":{"format":{"type":"text"}},"tool_choice":"auto","tools":[],"top_p":1,"truncation":"disabled","usage":{"input_tokens":0,"output_tokens":0,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":0},"user":null,"metadata":{}},"sequence_number":1}


        """#

    /// A text answer: the documented `response.created`, `output_item.added`,
    /// `content_part.added`, `output_text.delta` ("In"), `output_text.annotation.added`,
    /// `output_text.done`, `content_part.done`, `output_item.done`, all verbatim, then `completed`.
    static let text =
        #"""
        event: response.created
        data: {"type":"response.created","response":{"id":"resp_67ccfcdd16748190a91872c75d38539e09e4d4aac714747c","object":"response","created_at":1741487325,"status":"in_progress","completed_at":null,"error":null,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"model":"gpt-4o-2024-08-06","output":[],"parallel_tool_calls":true,"previous_response_id":null,"reasoning":{"effort":null,"summary":null},"store":true,"temperature":1,"text":{"format":{"type":"text"}},"tool_choice":"auto","tools":[],"top_p":1,"truncation":"disabled","usage":null,"user":null,"metadata":{}},"sequence_number":1}

        event: response.output_item.added
        data: {"type":"response.output_item.added","output_index":0,"item":{"id":"msg_123","status":"in_progress","type":"message","role":"assistant","content":[]},"sequence_number":1}

        event: response.content_part.added
        data: {"type":"response.content_part.added","item_id":"msg_123","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]},"sequence_number":1}

        event: response.output_text.delta
        data: {"type":"response.output_text.delta","item_id":"msg_123","output_index":0,"content_index":0,"delta":"In","sequence_number":1}

        event: response.output_text.annotation.added
        data: {"type":"response.output_text.annotation.added","item_id":"item-abc","output_index":0,"content_index":0,"annotation_index":0,"annotation":{"type":"file_citation","file_id":"file-abc","index":0,"filename":"example.txt"},"sequence_number":1}

        event: response.output_text.done
        data: {"type":"response.output_text.done","item_id":"msg_123","output_index":0,"content_index":0,"text":"In a shimmering forest …","sequence_number":1}

        event: response.content_part.done
        data: {"type":"response.content_part.done","item_id":"msg_123","output_index":0,"content_index":0,"sequence_number":1,"part":{"type":"output_text","text":"In a shimmering forest …","annotations":[]}}

        event: response.output_item.done
        data: {"type":"response.output_item.done","output_index":0,"item":{"id":"msg_123","status":"completed","type":"message","role":"assistant","content":[{"type":"output_text","text":"In a shimmering forest …","annotations":[]}]},"sequence_number":1}


        """# + completed

    /// A refusal: the documented `output_item.added`, `refusal.delta` and `refusal.done`
    /// verbatim; the content part and the item done carry a `refusal` part (the shape the note
    /// gives, not a documented example).
    static let refusal =
        #"""
        event: response.output_item.added
        data: {"type":"response.output_item.added","output_index":0,"item":{"id":"msg_123","status":"in_progress","type":"message","role":"assistant","content":[]},"sequence_number":1}

        event: response.content_part.added
        data: {"type":"response.content_part.added","item_id":"msg_123","output_index":0,"content_index":0,"part":{"type":"refusal","refusal":""},"sequence_number":1}

        event: response.refusal.delta
        data: {"type":"response.refusal.delta","item_id":"msg_123","output_index":0,"content_index":0,"delta":"refusal text so far","sequence_number":1}

        event: response.refusal.done
        data: {"type":"response.refusal.done","item_id":"item-abc","output_index":1,"content_index":2,"refusal":"final refusal text","sequence_number":1}

        event: response.output_item.done
        data: {"type":"response.output_item.done","output_index":0,"item":{"id":"msg_123","status":"completed","type":"message","role":"assistant","content":[{"type":"refusal","refusal":"final refusal text"}]},"sequence_number":1}


        """# + completed

    /// The first summary part of `reasoning`, as its documented delta sends it.
    static let greetingSummary = "**Responding to a greeting**\n\nThe user just said, \"Hello!\" …"

    /// A reasoning model's answer: the four documented reasoning-summary events verbatim
    /// (summary part 0), then a second summary part (index 1, its text in two deltas) in the
    /// same shapes; the reasoning item done with its summary and `encrypted_content` (the
    /// `ReasoningItem` shape); then a message, and `completed` with usage that counts cached
    /// and reasoning tokens (the `ResponseUsage` shape). Only the four events are documented
    /// examples; the rest is filled in.
    static let reasoning = #"""
        event: response.output_item.added
        data: {"type":"response.output_item.added","output_index":0,"item":{"id":"rs_6806bfca0b2481918a5748308061a2600d3ce51bdffd5476","type":"reasoning","summary":[]},"sequence_number":0}

        event: response.reasoning_summary_part.added
        data: {"type":"response.reasoning_summary_part.added","item_id":"rs_6806bfca0b2481918a5748308061a2600d3ce51bdffd5476","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""},"sequence_number":1}

        event: response.reasoning_summary_text.delta
        data: {"type":"response.reasoning_summary_text.delta","item_id":"rs_6806bfca…","output_index":0,"summary_index":0,"delta":"**Responding to a greeting**\n\nThe user just said, \"Hello!\" …","sequence_number":1}

        event: response.reasoning_summary_text.done
        data: {"type":"response.reasoning_summary_text.done","item_id":"rs_6806bfca…","output_index":0,"summary_index":0,"text":"**Responding to a greeting**\n\n…","sequence_number":1}

        event: response.reasoning_summary_part.done
        data: {"type":"response.reasoning_summary_part.done","item_id":"rs_6806bfca…","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":"**Responding to a greeting**\n\n…"},"sequence_number":1}

        event: response.reasoning_summary_part.added
        data: {"type":"response.reasoning_summary_part.added","item_id":"rs_6806bfca…","output_index":0,"summary_index":1,"part":{"type":"summary_text","text":""},"sequence_number":2}

        event: response.reasoning_summary_text.delta
        data: {"type":"response.reasoning_summary_text.delta","item_id":"rs_6806bfca…","output_index":0,"summary_index":1,"delta":"**Answering**","sequence_number":3}

        event: response.reasoning_summary_text.delta
        data: {"type":"response.reasoning_summary_text.delta","item_id":"rs_6806bfca…","output_index":0,"summary_index":1,"delta":"\n\nA short, friendly reply.","sequence_number":4}

        event: response.reasoning_summary_text.done
        data: {"type":"response.reasoning_summary_text.done","item_id":"rs_6806bfca…","output_index":0,"summary_index":1,"text":"**Answering**\n\nA short, friendly reply.","sequence_number":5}

        event: response.reasoning_summary_part.done
        data: {"type":"response.reasoning_summary_part.done","item_id":"rs_6806bfca…","output_index":0,"summary_index":1,"part":{"type":"summary_text","text":"**Answering**\n\nA short, friendly reply."},"sequence_number":6}

        event: response.output_item.done
        data: {"type":"response.output_item.done","output_index":0,"item":{"id":"rs_6806bfca0b2481918a5748308061a2600d3ce51bdffd5476","type":"reasoning","summary":[{"type":"summary_text","text":"**Responding to a greeting**\n\nThe user just said, \"Hello!\" …"},{"type":"summary_text","text":"**Answering**\n\nA short, friendly reply."}],"encrypted_content":"gAAAAABoBr_K9w+/x=="},"sequence_number":7}

        event: response.output_item.added
        data: {"type":"response.output_item.added","output_index":1,"item":{"id":"msg_123","status":"in_progress","type":"message","role":"assistant","content":[]},"sequence_number":8}

        event: response.output_text.delta
        data: {"type":"response.output_text.delta","item_id":"msg_123","output_index":1,"content_index":0,"delta":"Hi","sequence_number":9}

        event: response.output_text.delta
        data: {"type":"response.output_text.delta","item_id":"msg_123","output_index":1,"content_index":0,"delta":" there!","sequence_number":10}

        event: response.output_item.done
        data: {"type":"response.output_item.done","output_index":1,"item":{"id":"msg_123","status":"completed","type":"message","role":"assistant","content":[{"type":"output_text","text":"Hi there!","annotations":[]}]},"sequence_number":11}

        event: response.completed
        data: {"type":"response.completed","response":{"id":"resp_123","object":"response","status":"completed","error":null,"incomplete_details":null,"model":"o3-2025-04-16","output":[{"id":"rs_6806bfca0b2481918a5748308061a2600d3ce51bdffd5476","type":"reasoning","summary":[],"encrypted_content":"gAAAAABoBr_K9w+/x=="},{"id":"msg_123","type":"message","role":"assistant","content":[{"type":"output_text","text":"Hi there!","annotations":[]}]}],"store":false,"usage":{"input_tokens":9,"input_tokens_details":{"cached_tokens":4,"cache_write_tokens":0},"output_tokens":148,"output_tokens_details":{"reasoning_tokens":128},"total_tokens":157}},"sequence_number":12}


        """#

    /// A function call: the documented `function_call_arguments.delta` and `.done` verbatim
    /// (item `item-abc`, `get_weather`, `{ "arg": 123 }`); `output_item.added` and `.done` in the
    /// `FunctionToolCall` shape the note gives; then the documented `completed`.
    static let functionCall =
        #"""
        event: response.output_item.added
        data: {"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"item-abc","call_id":"call_abc","name":"get_weather","arguments":"","status":"in_progress"},"sequence_number":1}

        event: response.function_call_arguments.delta
        data: {"type":"response.function_call_arguments.delta","item_id":"item-abc","output_index":0,"delta":"{ \"arg\":","sequence_number":1}

        event: response.function_call_arguments.done
        data: {"type":"response.function_call_arguments.done","item_id":"item-abc","name":"get_weather","output_index":1,"arguments":"{ \"arg\": 123 }","sequence_number":1}

        event: response.output_item.done
        data: {"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"item-abc","call_id":"call_abc","name":"get_weather","arguments":"{ \"arg\": 123 }","status":"completed"},"sequence_number":1}


        """# + completed

    /// Text, then the documented `response.incomplete`, its elided middle (`…`) filled in from
    /// `response.completed`'s, and its reason the schema's `max_output_tokens` (the example's
    /// `max_tokens` is not in the schema's enum).
    static let incomplete = #"""
        event: response.output_text.delta
        data: {"type":"response.output_text.delta","item_id":"msg_123","output_index":0,"content_index":0,"delta":"In","sequence_number":1}

        event: response.incomplete
        data: {"type":"response.incomplete","response":{"id":"resp_123","object":"response","created_at":1740855869,"status":"incomplete","completed_at":null,"error":null,"incomplete_details":{"reason":"max_output_tokens"},"input":[],"instructions":null,"max_output_tokens":16,"model":"gpt-4o-mini-2024-07-18","output":[],"previous_response_id":null,"reasoning_effort":null,"store":false,"temperature":1,"text":{"format":{"type":"text"}},"tool_choice":"auto","tools":[],"top_p":1,"truncation":"disabled","usage":null,"user":null,"metadata":{}},"sequence_number":1}


        """#

    /// Text, then the documented `response.failed`, its elided middle filled in as above (the
    /// example has no `sequence_number`).
    static let failed = #"""
        event: response.output_text.delta
        data: {"type":"response.output_text.delta","item_id":"msg_123","output_index":0,"content_index":0,"delta":"In","sequence_number":1}

        event: response.failed
        data: {"type":"response.failed","response":{"id":"resp_123","object":"response","created_at":1740855869,"status":"failed","completed_at":null,"error":{"code":"server_error","message":"The model failed to generate a response."},"incomplete_details":null,"input":[],"instructions":null,"max_output_tokens":null,"model":"gpt-4o-mini-2024-07-18","output":[],"previous_response_id":null,"reasoning_effort":null,"store":false,"temperature":1,"text":{"format":{"type":"text"}},"tool_choice":"auto","tools":[],"top_p":1,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}


        """#

    /// Text, then the documented `error` event, verbatim (its fields flat).
    static let error = #"""
        event: response.output_text.delta
        data: {"type":"response.output_text.delta","item_id":"msg_123","output_index":0,"content_index":0,"delta":"In","sequence_number":1}

        event: error
        data: {"type":"error","code":"ERR_SOMETHING","message":"Something went wrong","param":null,"sequence_number":1}


        """#

    /// An `error` event as the live API sends it, its fields nested under `error` (captured in
    /// openai/openai-dotnet#881; also openai-python#2487, zendev-sh/goai#88).
    static let nestedError = #"""
        event: error
        data: {"type":"error","sequence_number":2,"error":{"type":"too_many_requests","code":"too_many_requests","message":"Too Many Requests","param":null}}


        """#

    /// LiteLLM 1.108.7's stream for a text answer (capture-litellm-responses-stream.txt, the
    /// body), verbatim.
    static let liteLLMText = #"""
        data: {"type":"response.created","response":{"id":"resp__rzNoOzbLtkXlyr5ZZbPYk4rrYc_yqvVft7GYpiZegTjx6wuN64m0yappCpaHHCeoUvBDdP9-Aw0xUqgYWDe2jcfKO3zow5FgYkurAbegoc_gkq7qrDje06p5IWkIixLB_uBfYUrMo2Sz23uXx0HheBMiMZ39tyxcOZrD9PCb2nlY0phRuJLtU5P4hc5bFM-kNoxcNLCZomSBtXli_w75wKbZ9x-873ONhlYfPeOjEebRa6L0F88QAZ2l8I5d30w-Sba6XAxCM2FG6COEAZTrqWYYd8haWyBM9-BiVw-3DYSramLexnNKotdNQLinHy4QvvL5OUpC0vmzgeI56c0c9dijj2yoMW15amHx8AsKRydVQctVI_sjEns2NIVZFYZLAAiGwoCSW72Iw==","created_at":1796660417,"instructions":"be brief","model":"fake-model","object":"response","output":[],"parallel_tool_calls":true,"tool_choice":"auto","tools":[],"top_p":1.0,"reasoning":{"effort":null,"summary":null},"status":"in_progress","store":true},"sequence_number":0,"model":"fake-model"}

        data: {"type":"response.in_progress","response":{"id":"resp__rzNoOzbLtkXlyr5ZZbPYk4rrYc_yqvVft7GYpiZegTjx6wuN64m0yappCpaHHCeoUvBDdP9-Aw0xUqgYWDe2jcfKO3zow5FgYkurAbegoc_gkq7qrDje06p5IWkIixLB_uBfYUrMo2Sz23uXx0HheBMiMZ39tyxcOZrD9PCb2nlY0phRuJLtU5P4hc5bFM-kNoxcNLCZomSBtXli_w75wKbZ9x-873ONhlYfPeOjEebRa6L0F88QAZ2l8I5d30w-Sba6XAxCM2FG6COEAZTrqWYYd8haWyBM9-BiVw-3DYSramLexnNKotdNQLinHy4QvvL5OUpC0vmzgeI56c0c9dijj2yoMW15amHx8AsKRydVQctVI_sjEns2NIVZFYZLAAiGwoCSW72Iw==","created_at":1796660417,"instructions":"be brief","model":"fake-model","object":"response","output":[],"parallel_tool_calls":true,"tool_choice":"auto","tools":[],"top_p":1.0,"reasoning":{"effort":null,"summary":null},"status":"in_progress","store":true},"sequence_number":1,"model":"fake-model"}

        data: {"type":"response.output_item.added","output_index":0,"item":{"id":"msg_599cf9cd-bf23-4879-95be-80c5c78323d3","type":"message","role":"assistant","status":"in_progress","content":[]},"sequence_number":2,"model":"fake-model"}

        data: {"type":"response.content_part.added","item_id":"msg_599cf9cd-bf23-4879-95be-80c5c78323d3","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]},"sequence_number":3,"model":"fake-model"}

        data: {"type":"response.output_text.delta","item_id":"msg_599cf9cd-bf23-4879-95be-80c5c78323d3","output_index":0,"content_index":0,"delta":"Hello","sequence_number":4,"model":"fake-model"}

        data: {"type":"response.output_text.delta","item_id":"msg_599cf9cd-bf23-4879-95be-80c5c78323d3","output_index":0,"content_index":0,"delta":" from","sequence_number":5,"model":"fake-model"}

        data: {"type":"response.output_text.delta","item_id":"msg_599cf9cd-bf23-4879-95be-80c5c78323d3","output_index":0,"content_index":0,"delta":" fake","sequence_number":6,"model":"fake-model"}

        data: {"type":"response.output_text.done","item_id":"msg_599cf9cd-bf23-4879-95be-80c5c78323d3","output_index":0,"content_index":0,"text":"Hello from fake","sequence_number":7,"model":"fake-model"}

        data: {"type":"response.content_part.done","item_id":"msg_599cf9cd-bf23-4879-95be-80c5c78323d3","output_index":0,"content_index":0,"part":{"type":"output_text","text":"Hello from fake","annotations":[]},"sequence_number":8,"model":"fake-model"}

        data: {"type":"response.output_item.done","output_index":0,"sequence_number":9,"item":{"id":"msg_599cf9cd-bf23-4879-95be-80c5c78323d3","status":"completed","type":"message","role":"assistant","content":[{"type":"output_text","text":"Hello from fake","annotations":[]}]},"model":"fake-model"}

        data: {"type":"response.completed","response":{"id":"resp__rzNoOzbLtkXlyr5ZZbPYk4rrYc_yqvVft7GYpiZegTjx6wuN64m0yappCpaHHCeoUvBDdP9-Aw0xUqgYWDe2jcfKO3zow5FgYkurAbegoc_gkq7qrDje06p5IWkIixLB_uBfYUrMo2Sz23uXx0HheBMiMZ39tyxcOZrD9PCb2nlY0phRuJLtU5P4hc5bFM-kNoxcNLCZomSBtXli_w75wKbZ9x-873ONhlYfPeOjEebRa6L0F88QAZ2l8I5d30w-Sba6XAxCM2FG6COEAZTrqWYYd8haWyBM9-BiVw-3DYSramLexnNKotdNQLinHy4QvvL5OUpC0vmzgeI56c0c9dijj2yoMW15amHx8AsKRydVQctVI_sjEns2NIVZFYZLAAiGwoCSW72Iw==","created_at":1796660417,"instructions":"be brief","metadata":{},"model":"fake-model","object":"response","output":[{"type":"message","id":"msg_599cf9cd-bf23-4879-95be-80c5c78323d3","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Hello from fake","annotations":[]}]}],"parallel_tool_calls":false,"tool_choice":"auto","tools":[],"max_output_tokens":100,"status":"completed","text":{},"usage":{"input_tokens":11,"input_tokens_details":{"cached_tokens":3},"output_tokens":5,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":16},"store":false},"sequence_number":10,"model":"fake-model"}

        data: [DONE]


        """#

    /// LiteLLM 1.108.7's stream for a function call
    /// (capture-litellm-responses-toolcall-stream.txt), verbatim: the call both in its
    /// `output_item.done` and in `completed`'s output.
    static let liteLLMToolCall = #"""
        data: {"type":"response.created","response":{"id":"resp_M9JxE9rt3godgtZEEpbYOF5BE6Ehrkixxe7ZiLSQOLxwQ9Nwb-nD-1bw0VyYez8dHGW4cEpnCHOGn--ibzhy3snT6pvSh6FWRJ4vMtQtwuHDEAjhbuYhyTAhND7DXztAIsve4CbRByjEVkw1FTP31WxUO_kwIuM5zlsyfN1-3qsQrRWRGZ169MxKcItpE1BPPCvI-EbgWz0z6jNvOA0Fl-fgc-gk9IVwQKrG8rRkyKV1uf5FckKONLTskCS-YHRWjZ8MfcSvBS-IabBf1aPl7xpM3QPkQx6-uCnDUgHpH_0751f7Dwp8QBXaPN2HbFDrgyJPkJrkaJ5GhSXWP4x706zZws1jXCoYMBPkwwlkePfZ0EpseP-t9FH0F_OwInjHHrEFwcgjTIxtEw==","created_at":1796660422,"model":"fake-model","object":"response","output":[],"parallel_tool_calls":true,"tool_choice":"auto","tools":[{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false},"strict":true,"type":"function","description":"weather"}],"top_p":1.0,"reasoning":{"effort":null,"summary":null},"status":"in_progress","store":true},"sequence_number":0,"model":"fake-model"}

        data: {"type":"response.in_progress","response":{"id":"resp_M9JxE9rt3godgtZEEpbYOF5BE6Ehrkixxe7ZiLSQOLxwQ9Nwb-nD-1bw0VyYez8dHGW4cEpnCHOGn--ibzhy3snT6pvSh6FWRJ4vMtQtwuHDEAjhbuYhyTAhND7DXztAIsve4CbRByjEVkw1FTP31WxUO_kwIuM5zlsyfN1-3qsQrRWRGZ169MxKcItpE1BPPCvI-EbgWz0z6jNvOA0Fl-fgc-gk9IVwQKrG8rRkyKV1uf5FckKONLTskCS-YHRWjZ8MfcSvBS-IabBf1aPl7xpM3QPkQx6-uCnDUgHpH_0751f7Dwp8QBXaPN2HbFDrgyJPkJrkaJ5GhSXWP4x706zZws1jXCoYMBPkwwlkePfZ0EpseP-t9FH0F_OwInjHHrEFwcgjTIxtEw==","created_at":1796660422,"model":"fake-model","object":"response","output":[],"parallel_tool_calls":true,"tool_choice":"auto","tools":[{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false},"strict":true,"type":"function","description":"weather"}],"top_p":1.0,"reasoning":{"effort":null,"summary":null},"status":"in_progress","store":true},"sequence_number":1,"model":"fake-model"}

        data: {"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_call_1","call_id":"call_1","name":"get_weather","status":"in_progress","arguments":""},"sequence_number":2,"model":"fake-model"}

        data: {"type":"response.function_call_arguments.delta","item_id":"fc_call_1","output_index":0,"delta":"{\"city\":","sequence_number":3,"model":"fake-model"}

        data: {"type":"response.function_call_arguments.delta","item_id":"fc_call_1","output_index":0,"delta":"\"Paris\"}","sequence_number":4,"model":"fake-model"}

        data: {"type":"response.function_call_arguments.done","item_id":"fc_call_1","output_index":0,"arguments":"{\"city\":\"Paris\"}","sequence_number":5,"model":"fake-model"}

        data: {"type":"response.output_item.done","output_index":0,"sequence_number":6,"item":{"type":"function_call","id":"fc_call_1","call_id":"call_1","name":"get_weather","status":"completed","arguments":"{\"city\":\"Paris\"}"},"model":"fake-model"}

        data: {"type":"response.completed","response":{"id":"resp_M9JxE9rt3godgtZEEpbYOF5BE6Ehrkixxe7ZiLSQOLxwQ9Nwb-nD-1bw0VyYez8dHGW4cEpnCHOGn--ibzhy3snT6pvSh6FWRJ4vMtQtwuHDEAjhbuYhyTAhND7DXztAIsve4CbRByjEVkw1FTP31WxUO_kwIuM5zlsyfN1-3qsQrRWRGZ169MxKcItpE1BPPCvI-EbgWz0z6jNvOA0Fl-fgc-gk9IVwQKrG8rRkyKV1uf5FckKONLTskCS-YHRWjZ8MfcSvBS-IabBf1aPl7xpM3QPkQx6-uCnDUgHpH_0751f7Dwp8QBXaPN2HbFDrgyJPkJrkaJ5GhSXWP4x706zZws1jXCoYMBPkwwlkePfZ0EpseP-t9FH0F_OwInjHHrEFwcgjTIxtEw==","created_at":1796660422,"metadata":{},"model":"fake-model","object":"response","output":[{"arguments":"{\"city\":\"Paris\"}","call_id":"call_1","name":"get_weather","type":"function_call","id":"fc_call_1","status":"completed"}],"parallel_tool_calls":false,"tool_choice":"auto","tools":[{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false},"strict":true,"type":"function","description":"weather"}],"reasoning":{"effort":"low","summary":"auto"},"status":"completed","text":{},"usage":{"input_tokens":11,"input_tokens_details":{"cached_tokens":3},"output_tokens":5,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":16},"store":false},"sequence_number":7,"model":"fake-model"}

        data: [DONE]


        """#
}
