"""An MCP server written with the PyPI `fastmcp` (4.1.6), which serves both protocol eras: an
image, structured output, progress, a question (`ask_name`: `ctx.elicit` in the initialize era,
`input_required` in 2026-07-28), a prompt and a resource.

usage: fastmcp_features.py            stdio"""
import base64
from dataclasses import dataclass
from fastmcp import FastMCP, Context
from fastmcp.utilities.types import Image
from mcp.types import InputRequiredResult, ElicitRequest, ElicitRequestFormParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

mcp = FastMCP("fastmcp-features", instructions="FastMCP features for chat's tests.")
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")


@mcp.tool
def red_pixel() -> Image:
    """1x1 red PNG"""
    return Image(data=PNG, format="png")


@dataclass
class Weather:
    city: str
    celsius: float


@mcp.tool
def weather(city: str) -> Weather:
    """structured output"""
    return Weather(city, 21.5)


@mcp.tool
async def slow_count(n: int, ctx: Context) -> str:
    """Counts to n, reporting progress."""
    for i in range(1, n + 1):
        await ctx.report_progress(i, total=n, message=f"step {i}")
    return f"counted to {n}"


@mcp.tool
async def ask_name(ctx: Context) -> str | InputRequiredResult:
    """Asks the user's name."""
    if ctx.request_context.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        r = await ctx.elicit("Your name?", response_type=str)
        return f"Hello {r.data}" if r.action == "accept" else "no name"
    if ctx.input_responses is None:
        return InputRequiredResult(result_type="input_required", input_requests={"name": ElicitRequest(
            method="elicitation/create", params=ElicitRequestFormParams(message="Your name?",
            requested_schema={"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}))})
    a = ctx.input_responses["name"]
    return f"Hello {a.content['name']}" if a.action == "accept" else "no name"


@mcp.prompt
def review_code(code: str) -> str:
    """Review code"""
    return f"Please review:\n{code}"


@mcp.resource("config://app")
def config() -> str:
    return "theme=dark"


if __name__ == "__main__":
    mcp.run(show_banner=False)
