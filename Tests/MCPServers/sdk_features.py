"""An MCP server written with the PyPI `mcp` SDK (2.3.0, `MCPServer`), which serves both protocol
eras: tools that give an image, audio, a resource link and an embedded resource, structured
output, an error, progress; questions in a form (`reserve`, era-portable through `Resolve`) and at a
URL (`connect`); `grow`, which adds the tool `added` and says the list changed (to a
`subscriptions/listen` stream in 2026-07-28, on the session before); a prompt, resources and a
resource template.

usage: sdk_features.py            stdio
       sdk_features.py http       Streamable HTTP on 127.0.0.1, an ephemeral port (printed first), /mcp"""
import base64, sys, uuid
from typing import Annotated
from pydantic import BaseModel
from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Image, Elicit, ElicitationResult, AcceptedElicitation, Resolve
from mcp.types import (AudioContent, EmbeddedResource, ResourceLink, TextContent, TextResourceContents,
                       InputRequiredResult, ElicitRequest, ElicitRequestURLParams)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

mcp = MCPServer("features", version="1.0.0", instructions="Features for chat's tests.")
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")
WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA="


@mcp.tool()
def red_pixel() -> Image:
    """Return a 1x1 red PNG."""
    return Image(data=PNG, format="png")


@mcp.tool()
def beep() -> list:
    """A short sound, and a word about it."""
    return [TextContent(type="text", text="a beep"), AudioContent(type="audio", data=WAV, mimeType="audio/wav")]


@mcp.tool()
def find_main() -> list:
    """A link to a file, and one file embedded."""
    return [ResourceLink(type="resource_link", uri="file:///project/src/main.rs", name="main.rs",
                         description="Primary application entry point", mimeType="text/x-rust"),
            EmbeddedResource(type="resource", resource=TextResourceContents(
                uri="file:///project/README", mimeType="text/plain", text="Read me first."))]


class Weather(BaseModel):
    city: str
    celsius: float
    conditions: str


@mcp.tool()
def weather(city: str) -> Weather:
    """Structured weather (outputSchema + structuredContent)."""
    return Weather(city=city, celsius=21.5, conditions="sunny")


@mcp.tool()
async def slow_count(n: int, ctx: Context) -> str:
    """Counts to n, reporting progress."""
    for i in range(1, n + 1):
        await ctx.report_progress(i, total=n, message=f"step {i}")
    return f"counted to {n}"


class Quantity(BaseModel):
    copies: int


async def ask_quantity() -> Elicit[Quantity]:
    return Elicit("How many copies?", Quantity)


@mcp.tool()
async def reserve(title: str, quantity: Annotated[ElicitationResult[Quantity], Resolve(ask_quantity)]) -> str:
    """Reserve a book; asks the user how many (elicitation)."""
    if isinstance(quantity, AcceptedElicitation):
        return f"Reserved {quantity.data.copies} of {title!r}."
    return "Nothing reserved."


@mcp.tool()
async def connect(ctx: Context) -> str | InputRequiredResult:
    """Asks the user to open a page to connect an account."""
    url, message = "https://accounts.example.com/connect?session=42", "Connect your example.com account."
    if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        answer = await ctx.elicit_url(message, url, str(uuid.uuid4()))
        return f"connect: {answer.action}"
    if ctx.input_responses is None:
        return InputRequiredResult(result_type="input_required", input_requests={"page": ElicitRequest(
            method="elicitation/create", params=ElicitRequestURLParams(message=message, url=url))})
    return f"connect: {ctx.input_responses['page'].action}"


@mcp.tool()
def fail() -> str:
    """Always raises -> isError result."""
    raise ValueError("boom")


def added() -> str:
    """Added by grow."""
    return "the added tool ran"


@mcp.tool()
async def grow(ctx: Context) -> str:
    """Adds the tool `added`, and says the list of tools changed."""
    mcp.add_tool(added)
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        await ctx.notify_tools_changed()
    else:
        await ctx.session.send_tool_list_changed()
    return "grown"


@mcp.prompt()
def review_code(code: str) -> str:
    """Review a piece of code."""
    return f"Please review this code:\n\n{code}"


@mcp.resource("config://app", mime_type="text/plain")
def get_config() -> str:
    """The app configuration."""
    return "theme=dark"


@mcp.resource("image://pixel", mime_type="image/png")
def pixel() -> bytes:
    """A red pixel."""
    return PNG


@mcp.resource("notes://{name}")
def note(name: str) -> str:
    """A note by name (resource template)."""
    return f"note {name}"


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "http":
        import socket, uvicorn
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        print(sock.getsockname()[1], flush=True)
        uvicorn.Server(uvicorn.Config(mcp.streamable_http_app(), log_level="warning")).run(sockets=[sock])
    else:
        mcp.run()
