#!/usr/bin/env python3
"""Checks on what `cargo run -p xtask -- package` wrote, as a new user would install it.

Run by scripts/test-unity-package.sh, with only the standard library:

  python3 tests/unity-stub/check_tarball.py <repository root> <dist dir> <fresh project>

<fresh project> is a Unity-style project made by the script: Packages/manifest.json naming the
tarball by a file: path, and the tarball unpacked where Unity's Package Manager puts it
(Library/PackageCache/com.sinew.physics/, from the tarball's package/ directory).
Checks the tarball itself (gzip'd tar, every entry under package/, no links or absolute paths),
package.json's fields (Unity's required and recommended ones, license, the URLs, samples that
exist), a .meta with a unique 32-hex-digit GUID for every asset, the native plugins (ELF x86-64,
PE x86-64) and their import settings, the wrapper copies, Documentation~, CHANGELOG.md and
LICENSE.md, and the C/C++ archives' layout. Ends with "tarball: N passed, M failed".
"""
import json
import os
import re
import struct
import sys
import tarfile
import zipfile

root, dist, project = (os.path.abspath(a) for a in sys.argv[1:4])
from unity_meta import check, platform_data, read, summary


version = re.search(r'\[package\][^\[]*?\nversion = "([^"]+)"', read(os.path.join(root, "Cargo.toml"))).group(1)
tgz = os.path.join(dist, "com.sinew.physics-%s.tgz" % version)
check(os.path.isfile(tgz), "the tarball is named after Cargo.toml's version: %s" % os.path.basename(tgz))
with open(tgz, "rb") as f:
    check(f.read(2) == b"\x1f\x8b", "the tarball is gzip'd")
with tarfile.open(tgz, "r:gz") as t:
    members = t.getmembers()
names = [m.name for m in members]
check(names and all(n.startswith("package/") for n in names), "every entry of the tarball is under package/ (%d entries)" % len(names),
      ", ".join(n for n in names if not n.startswith("package/"))[:300])
check(all(m.isfile() for m in members), "the tarball holds regular files only (no links Windows could not unpack)")
check(not [n for n in names if ".." in n.split("/") or n.startswith("/")], "no entry leaves the package (no .. or absolute path)")
check(len(set(names)) == len(names), "no entry appears twice")

# ---- the fresh project ----
manifest = json.loads(read(os.path.join(project, "Packages", "manifest.json")))
dep = manifest.get("dependencies", {}).get("com.sinew.physics", "")
check(dep.startswith("file:") and dep.endswith(".tgz"), "Packages/manifest.json names the tarball with file:", dep)
check(os.path.isfile(os.path.normpath(os.path.join(project, "Packages", dep[len("file:"):]))),
      "the manifest's file: path (relative to Packages/) reaches the tarball", dep)
package = os.path.join(project, "Library", "PackageCache", "com.sinew.physics")

# ---- package.json ----
try:
    pj = json.loads(read(os.path.join(package, "package.json")))
except (OSError, ValueError) as e:
    pj = {}
    check(False, "package.json parses", str(e))
check(pj.get("name") == "com.sinew.physics", "package.json: name com.sinew.physics")
check(pj.get("version") == version, "package.json: version %s, Cargo.toml's" % version, str(pj.get("version")))
check(re.fullmatch(r"20\d\d\.\d", pj.get("unity", "")) is not None, "package.json: unity is a MAJOR.MINOR editor version", str(pj.get("unity")))
for key in ("displayName", "description"):
    check(isinstance(pj.get(key), str) and pj[key].strip() != "", "package.json: %s is set" % key)
check(pj.get("license") == "MIT OR Apache-2.0", "package.json: license is the crate's SPDX expression", str(pj.get("license")))
for key in ("documentationUrl", "changelogUrl", "licensesUrl"):
    check(re.fullmatch(r"https://\S+", pj.get(key, "")) is not None, "package.json: %s is an https URL" % key, str(pj.get(key)))
check(all(re.fullmatch(r"com\.unity\.[a-z.]+", k) and re.fullmatch(r"\d+\.\d+\.\d+", v) for k, v in pj.get("dependencies", {}).items()),
      "package.json: dependencies are Unity packages at MAJOR.MINOR.PATCH", repr(pj.get("dependencies")))
samples = pj.get("samples", [])
check(len(samples) >= 1, "package.json lists samples (%d)" % len(samples))
for s in samples:
    path = s.get("path", "")
    folder = os.path.join(package, path)
    files = os.listdir(folder) if os.path.isdir(folder) else []
    check(path.startswith("Samples~/") and s.get("displayName") and s.get("description") and
          any(f.endswith(".cs") for f in files) and any(f.endswith(".unity") for f in files),
          "sample %r: a displayName, a description, and %s holds a script and a scene" % (s.get("displayName"), path), repr(files))

# ---- files Unity expects in a package ----
for name in ("README.md", "CHANGELOG.md", "LICENSE.md"):
    check(os.path.isfile(os.path.join(package, name)) and os.path.isfile(os.path.join(package, name + ".meta")),
          "%s and its .meta are in the package" % name)
licence = read(os.path.join(package, "LICENSE.md")) if os.path.isfile(os.path.join(package, "LICENSE.md")) else ""
check("MIT License" in licence and "Apache License" in licence, "LICENSE.md holds both licences")
changelog = read(os.path.join(package, "CHANGELOG.md")) if os.path.isfile(os.path.join(package, "CHANGELOG.md")) else ""
check("## [%s]" % version in changelog, "CHANGELOG.md has an entry for %s" % version)
doc = os.path.join(package, "Documentation~", "com.sinew.physics.md")
check(os.path.isfile(doc) and read(doc) == read(os.path.join(root, "docs", "unity.md")),
      "Documentation~/com.sinew.physics.md is docs/unity.md")
pictures = re.findall(r"\]\(([\w.-]+\.png)\)", read(os.path.join(root, "docs", "unity.md")))
absent = [p for p in pictures if not os.path.isfile(os.path.join(package, "Documentation~", p))]
check(pictures and not absent, "Documentation~ holds the %d pictures the manual shows beside it" % len(pictures), ", ".join(absent))

# ---- .meta files ----
assets = []
for dirpath, dirnames, filenames in os.walk(package):
    rel_dir = os.path.relpath(dirpath, package)
    in_tilde = any(part.endswith("~") for part in rel_dir.split(os.sep))
    for d in dirnames:
        if not d.endswith("~") and not in_tilde:
            assets.append(os.path.join(dirpath, d))
    for name in filenames:
        # Unity imports no file of a folder ending in ~, except that a sample's files are
        # copied into Assets/ with their .meta files when imported.
        in_docs = "Documentation~" in rel_dir.split(os.sep)
        if not name.endswith(".meta") and not in_docs:
            assets.append(os.path.join(dirpath, name))
missing = [os.path.relpath(a, package) for a in assets if not os.path.isfile(a + ".meta")]
check(not missing, "every asset of the unpacked package has a .meta (%d assets)" % len(assets), ", ".join(missing))
orphans = []
guids = {}
bad = []
for dirpath, _, filenames in os.walk(package):
    for n in filenames:
        if n.endswith(".meta"):
            meta = os.path.join(dirpath, n)
            if not os.path.exists(meta[: -len(".meta")]):
                orphans.append(os.path.relpath(meta, package))
            found = re.findall(r"^guid: ([0-9a-f]{32})$", read(meta), re.M)
            if len(found) != 1 or not read(meta).startswith("fileFormatVersion: 2\n"):
                bad.append(os.path.relpath(meta, package))
            else:
                guids.setdefault(found[0], []).append(os.path.relpath(meta, package))
check(not orphans, "no .meta without its asset", ", ".join(orphans))
check(not bad, "every .meta is fileFormatVersion 2 with one 32-hex-digit guid", ", ".join(bad))
dupes = ["%s: %s" % (g, ", ".join(ps)) for g, ps in guids.items() if len(ps) > 1]
check(not dupes, "the %d GUIDs are unique" % len(guids), "; ".join(dupes))

# ---- the wrapper ----
sources = {}
for d in ("bindings/csharp", "bindings/csharp/Unity"):
    for n in os.listdir(os.path.join(root, d)):
        if n.endswith(".cs"):
            sources[n] = read(os.path.join(root, d, n), "rb")
wrapper = os.path.join(package, "Runtime", "Wrapper")
copies = {n: read(os.path.join(wrapper, n), "rb") for n in os.listdir(wrapper) if n.endswith(".cs")} if os.path.isdir(wrapper) else {}
check(copies == sources, "Runtime/Wrapper holds bindings/csharp's %d files, unchanged" % len(sources),
      "missing %s, extra %s" % (sorted(set(sources) - set(copies)), sorted(set(copies) - set(sources))))


# ---- the plugins ----

def elf_x86_64(data):
    return data[:4] == b"\x7fELF" and data[4] == 2 and struct.unpack_from("<H", data, 18)[0] == 0x3E


def pe_x86_64(data):
    if data[:2] != b"MZ":
        return False
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    return data[pe:pe + 4] == b"PE\0\0" and struct.unpack_from("<H", data, pe + 4)[0] == 0x8664


plugins = {
    "Linux/x86_64/libsinew.so": ("Linux", "Linux64", "x86_64", elf_x86_64, True),
    "Windows/x86_64/sinew.dll": ("Windows", "Win64", "x86_64", pe_x86_64, True),
    # Only with --macos (cargo-zigbuild); the .meta is there either way.
    "macOS/libsinew.dylib": ("OSX", "OSXUniversal", "AnyCPU", lambda d: d[:4] == b"\xca\xfe\xba\xbe", False),
}
for path, (editor_os, player, cpu, is_format, required) in plugins.items():
    binary = os.path.join(package, "Runtime", "Plugins", path)
    if os.path.isfile(binary):
        check(is_format(read(binary, "rb")), "Plugins/%s is a %s library for %s" % (path, editor_os, cpu))
    elif required:
        check(False, "Plugins/%s is in the tarball" % path)
    else:
        print("--     Plugins/%s not built (optional: --macos), so neither it nor its .meta is in the tarball" % path)
    meta = binary + ".meta"
    if not os.path.isfile(binary) and not os.path.isfile(meta):
        continue
    try:
        text = read(meta)
        data = platform_data(text)
    except (OSError, IndexError, AttributeError) as e:
        check(False, "Plugins/%s.meta is a PluginImporter with platformData" % path, str(e))
        continue
    editor = data.get(("Editor", "Editor"), (False, {}))
    check("PluginImporter:" in text and editor[0] and editor[1].get("OS") == editor_os and editor[1].get("CPU") == cpu,
          "Plugins/%s.meta: loads in the %s Editor (CPU %s)" % (path, editor_os, cpu), repr(editor))
    standalone = data.get(("Standalone", player), (False, {}))
    others = [k[1] for k, v in data.items() if k[0] == "Standalone" and k[1] != player and v[0]]
    check(standalone[0] and standalone[1].get("CPU") == cpu and not others,
          "Plugins/%s.meta: in %s players only (CPU %s)" % (path, player, cpu), repr(standalone) + " others: " + ", ".join(others))
    excludes = data.get(("", "Any"), (True, {}))[1]
    check(excludes.get("Exclude " + player) == "0" and all(v == "1" for k, v in excludes.items() if k not in ("Exclude Editor", "Exclude " + player)),
          "Plugins/%s.meta: the Any block excludes every other player" % path, repr(excludes))

# ---- the C/C++ archives ----
archives = sorted(n for n in os.listdir(dist) if n.startswith("sinew-%s-" % version) and n.endswith(".tar.gz"))
triples = [n[len("sinew-%s-" % version):-len(".tar.gz")] for n in archives]
check("x86_64-unknown-linux-gnu" in triples and "x86_64-pc-windows-gnu" in triples,
      "a C/C++ archive for Linux and for Windows (MinGW)", ", ".join(archives))
abi = ".".join(version.split(".")[:2]) if version.startswith("0.") else version.split(".")[0]
expect = {
    "x86_64-unknown-linux-gnu": ["include/sinew.h", "include/sinew.hpp", "lib/libsinew.so.%s" % version, "lib/libsinew.a",
                                 "lib/cmake/Sinew/SinewConfig.cmake", "lib/cmake/Sinew/SinewConfigVersion.cmake",
                                 "lib/pkgconfig/sinew.pc", "share/doc/sinew/LICENSE-MIT", "share/doc/sinew/LICENSE-APACHE"],
    "x86_64-pc-windows-gnu": ["include/sinew.h", "include/sinew.hpp", "bin/sinew.dll", "lib/libsinew.dll.a", "lib/libsinew.a",
                              "lib/cmake/Sinew/SinewConfig.cmake"],
}
for archive, triple in zip(archives, triples):
    top = "sinew-%s-%s" % (version, triple)
    with tarfile.open(os.path.join(dist, archive), "r:gz") as t:
        members = {m.name: m for m in t.getmembers()}
    check(all(n.startswith(top + "/") for n in members), "%s: every entry under %s/" % (archive, top))
    wanted = ["%s/%s" % (top, f) for f in expect.get(triple, [])]
    absent = [w for w in wanted if w not in members]
    check(not absent, "%s: headers, libraries, CMake and pkg-config files (%d checked)" % (archive, len(wanted)), ", ".join(absent))
    if triple == "x86_64-unknown-linux-gnu":
        links = {n: m.linkname for n, m in members.items() if m.issym()}
        check(links.get("%s/lib/libsinew.so" % top) == "libsinew.so.%s" % abi and links.get("%s/lib/libsinew.so.%s" % (top, abi)) == "libsinew.so.%s" % version,
              "%s: libsinew.so -> libsinew.so.%s -> libsinew.so.%s, as links" % (archive, abi, version), repr(links))

# Windows targets: the same tree as a zip, which Python's zipfile reads back entry for entry.
for archive, triple in zip(archives, triples):
    if "windows" not in triple:
        continue
    top = "sinew-%s-%s" % (version, triple)
    zipped = os.path.join(dist, top + ".zip")
    if not os.path.isfile(zipped):
        check(False, "%s.zip exists beside %s" % (top, archive))
        continue
    with zipfile.ZipFile(zipped) as z, tarfile.open(os.path.join(dist, archive), "r:gz") as t:
        bad = z.testzip()
        check(bad is None, "%s.zip: every entry inflates with its CRC-32" % top, str(bad))
        tar_files = {m.name: t.extractfile(m).read() for m in t.getmembers() if m.isfile()}
        zip_files = {n: z.read(n) for n in z.namelist()}
        check(sorted(zip_files) == sorted(tar_files),
              "%s.zip: the same %d files as the .tar.gz" % (top, len(tar_files)),
              ", ".join(sorted(set(zip_files) ^ set(tar_files))))
        same = [n for n in tar_files if zip_files.get(n) == tar_files[n]]
        check(len(same) == len(tar_files), "%s.zip: every file byte for byte as in the .tar.gz" % top,
              "%d of %d equal" % (len(same), len(tar_files)))

summary("tarball")
