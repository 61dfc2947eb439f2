#!/usr/bin/env python3
"""The wire schema's gate (make schema-check, in .ci/run).

1. buf lint (buf.yaml: STANDARD, each exception justified there);
2. buf breaking against the last released schema (Sources/CaffeProtocol/Proto/released.binpb);
3. every .proto carries the generator options of docs/WIRE.md "Generating a client";
4. the service blocks declare exactly the methods WIRE.md's method table lists, with the same
   request and reply messages;
5. Go code generated from the schema (protoc-gen-go) compiles and passes go vet.

Exits non-zero naming what failed; prints what it checked.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "Sources/CaffeProtocol/Proto"
BASELINE = PROTO / "released.binpb"
OPTIONS = ["csharp_namespace", "go_package", "java_multiple_files", "java_outer_classname", "java_package",
           "swift_prefix"]


def run(command, **kwargs):
    print("schema-check: " + " ".join(str(c) for c in command), flush=True)
    return subprocess.run(command, cwd=kwargs.pop("cwd", ROOT), **kwargs)


def proto_files():
    return sorted(PROTO.rglob("*.proto"))


def missing_options():
    problems = []
    for path in proto_files():
        text = path.read_text()
        for option in OPTIONS:
            if not re.search(r"^option\s+%s\s*=" % option, text, re.M):
                problems.append(f"{path.relative_to(ROOT)}: no `option {option}`")
    return problems


def declared_methods():
    """(full method, request, reply) for every rpc in every service block."""
    methods = set()
    for path in proto_files():
        text = path.read_text()
        package = re.search(r"^package\s+([\w.]+);", text, re.M).group(1)
        for service, body in re.findall(r"^service\s+(\w+)\s*\{(.*?)^\}", text, re.M | re.S):
            for name, request, reply in re.findall(r"rpc\s+(\w+)\s*\(\s*([\w.]+)\s*\)\s*returns\s*\(\s*([\w.]+)\s*\)", body):
                methods.add((f"{package}.{service}/{name}", request.split(".")[-1], reply.split(".")[-1]))
    return methods


def documented_methods():
    """The same, from WIRE.md's method table ("Requests and replies": | method | request | reply |)."""
    wire = (ROOT / "docs/WIRE.md").read_text()
    table = wire.split("| method | request | reply |", 1)[1].split("\n\n", 1)[0]
    methods = set()
    for method, request, reply in re.findall(r"^\| `([\w.]+/\w+)` \| `([\w.]+)`[^|]*\| (?:`([\w.]+)|empty)", table, re.M):
        methods.add((method, request.split(".")[-1], (reply or "Empty").split(".")[-1]))
    return methods


def go_generates():
    with tempfile.TemporaryDirectory() as gopath:
        out = Path(gopath) / "src"
        out.mkdir()
        files = [str(p.relative_to(PROTO)) for p in proto_files() if p.parts[-4:-1] != ("grpc", "health", "v1")]
        result = run(["protoc", "--plugin=protoc-gen-go=/usr/bin/protoc-gen-go", f"--go_out={out}",
                      "-I", str(PROTO)] + files, cwd=PROTO)
        if result.returncode != 0:
            return "protoc-gen-go failed"
        packages = sorted({str(p.parent.relative_to(out)) for p in out.rglob("*.pb.go")})
        env = dict(os.environ, GOPATH=f"{gopath}:/usr/share/gocode", GO111MODULE="off", GOCACHE=f"{gopath}/cache",
                   GOFLAGS="")
        for step in (["go", "build"], ["go", "vet"]):
            if run(step + packages, cwd=gopath, env=env).returncode != 0:
                return f"{' '.join(step)} of the generated Go failed"
        print(f"schema-check: Go: {len(list(out.rglob('*.pb.go')))} files in {', '.join(packages)} build and vet")
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--buf", required=True, help="the buf executable")
    parser.add_argument("--skip-go", action="store_true", help="skip the Go generation check")
    args = parser.parse_args()
    failures = []
    if run([args.buf, "lint"]).returncode != 0:
        failures.append("buf lint")
    if run([args.buf, "breaking", "--against", str(BASELINE.relative_to(ROOT))]).returncode != 0:
        failures.append(f"buf breaking against {BASELINE.relative_to(ROOT)}")
    failures += missing_options()
    declared, documented = declared_methods(), documented_methods()
    for method in sorted(declared - documented):
        failures.append(f"{method[0]} ({method[1]} -> {method[2]}) is declared in a .proto but not in WIRE.md's table")
    for method in sorted(documented - declared):
        failures.append(f"{method[0]} ({method[1]} -> {method[2]}) is in WIRE.md's table but no service declares it")
    services = {m[0].split("/")[0] for m in declared}
    print(f"schema-check: {len(proto_files())} files with {len(OPTIONS)} generator options each; "
          f"{len(services)} services ({', '.join(sorted(services))}), {len(declared)} methods, as WIRE.md lists them")
    if not args.skip_go:
        failure = go_generates()
        if failure:
            failures.append(failure)
    if failures:
        print("schema-check: FAILED\n  " + "\n  ".join(failures))
        return 1
    print("schema-check: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
