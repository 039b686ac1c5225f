#!/usr/bin/env python3
"""A TCP proxy on 127.0.0.1 that adds a fixed delay each way, as a network between a client
and a server on this machine would: every byte is held `delay` seconds in each direction, and
a new connection's first bytes also wait for the round trip of the TCP handshake (SYN, SYN-ACK)
that loopback does at once. Order is kept. Prints its port, then `accept` for each connection.

    latency_proxy.py UPSTREAM_PORT DELAY_MS
"""
import asyncio
import sys


async def pump(reader, writer, delay, not_before):
    """Copies reader to writer, each piece `delay` seconds after it arrived (and no piece
    before `not_before`, loop time); ends with the writer's end of stream."""
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()

    async def deliver():
        while True:
            due, data = await queue.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                try:
                    writer.write_eof()
                except (OSError, RuntimeError):
                    pass
                return
            writer.write(data)
            try:
                await writer.drain()
            except OSError:
                return

    task = asyncio.ensure_future(deliver())
    while True:
        try:
            data = await reader.read(65536)
        except OSError:
            data = b""
        queue.put_nowait((max(loop.time(), not_before) + delay, data))
        if not data:
            break
    await task


async def main():
    upstream_port, delay = int(sys.argv[1]), int(sys.argv[2]) / 1000

    async def handle(client_reader, client_writer):
        loop = asyncio.get_running_loop()
        print("accept", flush=True)
        # What the client sends leaves only after the handshake's round trip.
        handshake_done = loop.time() + 2 * delay
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", upstream_port)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(
            pump(client_reader, server_writer, delay, handshake_done),
            pump(server_reader, client_writer, delay, 0),
        )
        for writer in (server_writer, client_writer):
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
