"""Fetch MLIR's GPU integration tests at a pinned LLVM release, for `run_mlir_integration.py`.

The files are not kept in this repository: this script copies them, at the tag `PINNED` (the
release that Debian's `mlir-22-tools` and `llvm-22`, which the tests run with, are built from),
from GitHub or from a folder or URL that mirrors LLVM's tree (`--from`), into `--into`
(default: `.cache/mlir-integration/<tag>` at the repository's root), keeping LLVM's paths
(`mlir/test/Integration/GPU/…`, which ROCm's `assert.mlir` checks). Each file is written whole
or not at all, and `MANIFEST.json` records the tag, the source and each file's SHA-256: a later
run fetches only what is missing or does not match its checksum.

    python scripts/fetch_mlir_integration.py [--from URL_OR_FOLDER] [--into FOLDER]

`make mlir-integration` fetches them and runs them; the lit suite runs them too
(`tests/lit/upstream/mlir-integration.py`) where they have been fetched and LLVM's FileCheck is
installed. The exit status is 0 when every file is there, else 1 (with the files that failed).
"""

import argparse
import hashlib
import json
import os
import sys
import tempfile
import urllib.request
from pathlib import Path

PINNED = "llvmorg-22.1.8"
GITHUB = "https://raw.githubusercontent.com/llvm/llvm-project/{tag}/"
ROOT = Path(__file__).resolve().parents[1]
PREFIX = "mlir/test/Integration/GPU/"
FILES = (
    *(
        f"CUDA/{name}.mlir"
        for name in (
            "all-reduce-and",
            "all-reduce-maxsi",
            "all-reduce-minsi",
            "all-reduce-op",
            "all-reduce-or",
            "all-reduce-region",
            "all-reduce-xor",
            "alloc-host-shared",
            "assert",
            "async",
            "command-line-arg",
            "concurrent-kernels",
            "dump-ptx",
            "dump-sass",
            "gpu-to-cubin",
            "module-to-binary-compiler-log",
            "multiple-all-reduce",
            "printf",
            "shuffle",
            "subgroup-reduce-redux",
            "two-modules",
        )
    ),
    *(
        f"CUDA/TensorCore/{name}.mlir"
        for name in (
            "sm80/transform-mma-sync-matmul-f16-f16-accum",
            "sm80/transform-mma-sync-matmul-f32",
            "sm80/wmma-matmul-f64",
            "transform-mma-sync-matmul-f16-f16-accum",
            "transform-mma-sync-matmul-f32",
            "wmma-matmul-f16-elementwise",
            "wmma-matmul-f16",
            "wmma-matmul-f32-bare-ptr",
            "wmma-matmul-f32",
            "wmma-matmul-f64",
            "wmma-transposed-store-f16",
        )
    ),
    *(
        f"ROCM/{name}.mlir"
        for name in (
            "WMMA/wmma_f16_16_16_16_f16",
            "WMMA/wmma_f16_16_16_16_f16_opselect",
            "WMMA/wmma_f16_16_16_16_f16_x2",
            "WMMA/wmma_f32_16_16_16_f16",
            "WMMA/wmma_f32_16_16_16_f16_a_b_transpose",
            "assert",
            "gpu-lower-to-rocdl-pipeline",
            "gpu-to-hsaco",
            "printf",
            "two-modules",
            "vecadd",
            "vector-transferops",
        )
    ),
)
"""The 44 files, under `PREFIX` (CUDA's `sm90/`, Hopper's TMA and wgmma, is left aside)."""


def default_folder(tag: str = PINNED) -> Path:
    return ROOT / ".cache" / "mlir-integration" / tag


def read(source: str, path: str) -> bytes:
    """`path` of LLVM's tree from `source`: a folder, or a URL that ends with `/`."""
    if "://" not in source:
        return (Path(source) / path).read_bytes()
    with urllib.request.urlopen(source + path, timeout=60) as answer:  # noqa: S310
        return answer.read()


def write_whole(path: Path, data: bytes) -> None:
    """`data` at `path`, all of it or (on any failure) nothing new."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, part = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(part, path)
    except BaseException:
        os.unlink(part)
        raise


def fetch(source: str, into: Path, tag: str = PINNED) -> list[str]:
    """Bring `FILES` from `source` into `into`; the files that could not be fetched, each with
    why. Files that the manifest vouches for (same tag, same checksum) are not fetched again."""
    manifest_path = into / "MANIFEST.json"
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, ValueError):
        manifest = {}
    if manifest.get("tag") != tag:
        manifest = {"tag": tag, "source": source, "files": {}}
    failed = []
    for name in FILES:
        path = PREFIX + name
        target = into / path
        known = manifest["files"].get(path)
        if known is not None and target.is_file():
            if hashlib.sha256(target.read_bytes()).hexdigest() == known:
                continue
        try:
            data = read(source, path)
        except OSError as e:
            failed.append(f"{path}: {e}")
            continue
        write_whole(target, data)
        manifest["files"][path] = hashlib.sha256(data).hexdigest()
    manifest["source"] = source
    write_whole(manifest_path, (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())
    return failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tag", default=PINNED, help=f"the LLVM tag (default {PINNED})")
    parser.add_argument(
        "--from",
        dest="source",
        help="a folder or URL (ending with /) that holds LLVM's tree at the tag (default: GitHub)",
    )
    parser.add_argument("--into", type=Path, help="where to put them (default: .cache/…/TAG)")
    args = parser.parse_args()
    source = args.source or GITHUB.format(tag=args.tag)
    into = args.into or default_folder(args.tag)
    failed = fetch(source, into, args.tag)
    for line in failed:
        print(f"fetch_mlir_integration: not fetched: {line}", file=sys.stderr)
    print(f"{len(FILES) - len(failed)} of {len(FILES)} files of {args.tag} in {into}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
