"""The layout docs against the package: README's "What is here" table and ARCHITECTURE's "Layout"
block must name every target's folder and only paths that exist, and each README row must name
every folder directly inside its target (deeper ones may be named too) and no folder it lacks. Run by `make test`; the package comes from `swift package dump-package`.
"""
import json
import os
import pathlib
import re
import subprocess
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Folders inside a target that are not part of its design: C headers, DocC catalogs.
NOT_DESIGN = {"include", "Docs.docc"}


def package():
    swift = os.environ.get("SWIFT") or "swift"
    output = subprocess.run(
        [swift, "package", "dump-package"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(output)


def target_folder(target):
    if target.get("path"):
        return target["path"].rstrip("/")
    return ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]


def section(text, heading):
    start = text.index(heading)
    end = text.find("\n#", start + len(heading))
    return text[start : end if end > 0 else len(text)]


class LayoutDocsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        targets = package()["targets"]
        cls.dependencies = {
            t["name"]: {
                (d.get("byName") or d.get("target") or d.get("product") or [None])[0] for d in t.get("dependencies", [])
            }
            for t in targets
        }
        cls.shipped = {target_folder(t): t["name"] for t in targets if t["type"] != "test" and not target_folder(t).startswith("Tests/")}
        cls.readme = (ROOT / "README.md").read_text(encoding="utf-8")
        cls.architecture = (ROOT / "docs/ARCHITECTURE.md").read_text(encoding="utf-8")

    def readme_rows(self):
        rows = {}
        for line in section(self.readme, "## What is here").splitlines():
            match = re.match(r"\| `([^`]+)` \| (.*) \|$", line)
            if match:
                rows[match.group(1).rstrip("/")] = match.group(2)
        return rows

    def layout_lines(self):
        block = section(self.architecture, "## Layout")
        code = block.split("```")[1]
        return [line.split(None, 1) for line in code.strip().splitlines()]

    def test_readme_names_every_target_and_only_real_paths(self):
        rows = self.readme_rows()
        for path in rows:
            self.assertTrue((ROOT / path).exists(), f"README 'What is here' names {path}, which does not exist")
        for folder, name in sorted(self.shipped.items()):
            self.assertIn(folder, rows, f"README 'What is here' has no row for the target {name} ({folder})")

    def test_readme_rows_name_exactly_the_folders_of_their_target(self):
        for path, what in self.readme_rows().items():
            if path not in self.shipped:
                continue
            named = {name.rstrip("/") for name in re.findall(r"`([A-Za-z][A-Za-z0-9.]*)/`", what)}
            present = {p.name for p in (ROOT / path).iterdir() if p.is_dir() and p.name not in NOT_DESIGN}
            nested = {p.name for p in (ROOT / path).rglob("*") if p.is_dir()}
            self.assertEqual(
                named - nested, set(), f"README 'What is here': {path} names folders it does not have"
            )
            self.assertEqual(
                present - named, set(), f"README 'What is here': {path} has folders its row does not name"
            )

    def test_architecture_layout_names_every_target_and_only_real_paths(self):
        lines = self.layout_lines()
        paths = {line[0].rstrip("/") for line in lines}
        for line in lines:
            for path in line[0].split(","):
                if path:
                    self.assertTrue((ROOT / path).exists(), f"ARCHITECTURE 'Layout' names {path}, which does not exist")
        for folder, name in sorted(self.shipped.items()):
            self.assertIn(folder, paths, f"ARCHITECTURE 'Layout' has no line for the target {name} ({folder})")

    def test_harnesses_depend_on_the_product_not_the_other_way(self):
        # The simulator measures workers as processes; test helpers never ship in `caffe`.
        self.assertNotIn("CaffeWorker", self.closure("CaffeSimulator"))
        for kit in ["WorkerTestKit", "CaffeTestKit", "ZeroMQTestKit"]:
            self.assertNotIn(kit, self.closure("caffe"), f"the caffe product links {kit}")
        for path in (ROOT / "Simulator/Sources").rglob("*.swift"):
            self.assertNotIn("import CaffeWorker", path.read_text(encoding="utf-8"), f"{path} imports CaffeWorker")

    def closure(self, name):
        seen, stack = set(), [name]
        while stack:
            for dependency in self.dependencies.get(stack.pop(), set()) - seen:
                seen.add(dependency)
                stack.append(dependency)
        return seen


if __name__ == "__main__":
    unittest.main()
