"""What check_project.py and check_tarball.py share: the check counter, reading a file, and a
PluginImporter .meta file's platformData."""
import re
import sys

passed = 0
failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok     " + what)
    else:
        failed += 1
        print("FAILED " + what + (": " + detail if detail else ""))


def summary(label):
    """Prints "LABEL: N passed, M failed" and exits non-zero when M > 0."""
    print("%s: %d passed, %d failed" % (label, passed, failed))
    sys.exit(1 if failed else 0)


def read(path, mode="r"):
    with open(path, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
        return f.read()


def platform_data(text):
    """{(first key, first value): (enabled, {setting: value})} of a serializedVersion 2 PluginImporter."""
    entries = {}
    blocks = re.split(r"\n  - first:\n", text.split("platformData:", 1)[1].split("\n  userData:", 1)[0])
    for block in blocks[1:]:
        first = re.match(r"\s+([^:\n]*): ?([^\n]*)\n", block)
        enabled = re.search(r"enabled: (\d)", block)
        settings = dict(re.findall(r"\n        ([A-Za-z0-9 ]+): ([^\n]*)", block))
        entries[(first.group(1).strip(), first.group(2).strip())] = (enabled.group(1) == "1", settings)
    return entries
