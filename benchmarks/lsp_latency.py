"""How soon `rulesdsl lsp` publishes diagnostics after an edit to a shipped profile.

Starts the server over stdio with pygls' client, opens a copy of a shipped profile (unsaved,
as an editor holds it) and makes N edits one after another, each changing one value (every
third edit to a value with an error), timing each from sending the change to receiving the
diagnostics for that version. Prints the distribution; the aim is under 50 ms.

Run: .venv/bin/python benchmarks/lsp_latency.py [--edits N] [--profile NAME]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from rulesdsl.read.profile import find

AIM_MS = 50.0
VALUES = ("2", "3", "lots")
DRAW = re.compile(r"^(\s*draw:?\s+)\S+", re.MULTILINE)


async def measure(name: str, edits: int) -> list[float]:
    source = find(name)
    if source is None:
        raise SystemExit(f"no shipped profile named {name}")
    text = source.read_text()
    draw = DRAW.search(text)
    if draw is None:
        raise SystemExit(f"{name} does not set draw")
    client = LanguageClient("lsp-latency", "1")
    arrived: dict[int, float] = {}
    waiting: dict[int, asyncio.Event] = {}

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: lsp.PublishDiagnosticsParams) -> None:
        if params.version in waiting:
            arrived[params.version] = time.perf_counter()
            waiting[params.version].set()

    await client.start_io(sys.executable, "-m", "rulesdsl.surfaces", "lsp")
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    with tempfile.TemporaryDirectory() as folder:
        uri = from_fs_path(str(Path(folder) / source.name))
        item = lsp.TextDocumentItem(uri=uri, language_id="rules", version=0, text=text)
        waiting[0] = asyncio.Event()
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=item))
        await asyncio.wait_for(waiting[0].wait(), 10)
        latencies = []
        for version in range(1, edits + 1):
            waiting[version] = asyncio.Event()
            value = VALUES[version % len(VALUES)]
            new = text[: draw.start()] + draw.group(1) + value + text[draw.end() :]
            change = lsp.TextDocumentContentChangeWholeDocument(text=new)
            document = lsp.VersionedTextDocumentIdentifier(uri=uri, version=version)
            sent = time.perf_counter()
            client.text_document_did_change(
                lsp.DidChangeTextDocumentParams(text_document=document, content_changes=[change])
            )
            await asyncio.wait_for(waiting[version].wait(), 10)
            latencies.append((arrived[version] - sent) * 1000)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return latencies


def report(name: str, latencies: list[float]) -> None:
    ordered = sorted(latencies)

    def pick(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    print(f"diagnostics after an edit to {name}, {len(ordered)} edits (ms):")
    for label, value in (
        ("min", ordered[0]),
        ("median", statistics.median(ordered)),
        ("p90", pick(0.90)),
        ("p99", pick(0.99)),
        ("max", ordered[-1]),
    ):
        print(f"  {label:<7}{value:8.2f}")
    over = sum(v > AIM_MS for v in ordered)
    print(f"  over {AIM_MS:.0f} ms: {over} of {len(ordered)}")
    edges = [1, 2, 5, 10, 20, 50, float("inf")]
    low = 0.0
    for high in edges:
        count = sum(low <= v < high for v in ordered)
        label = f"{low:g}-{high:g}" if high != float("inf") else f">= {low:g}"
        print(f"  {label:>8} ms  {count:5}  {'#' * round(60 * count / len(ordered))}")
        low = high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=1000)
    parser.add_argument("--profile", default="bicycle")
    args = parser.parse_args()
    report(args.profile, asyncio.run(measure(args.profile, args.edits)))


if __name__ == "__main__":
    main()
