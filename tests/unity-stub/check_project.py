#!/usr/bin/env python3
"""Checks on the Unity project and package files that Unity would make when it opens them.

Run by scripts/test-unity.sh (after scripts/package-unity.sh --wrapper-only), with only the
standard library:
  - package.json and Packages/manifest.json parse, and say what Unity needs;
  - every file and folder of the package and of Assets/ has a .meta with a well-formed,
    unique GUID (Unity ignores assets without one in an immutable, git-installed package);
  - the wrapper copies in Runtime/Wrapper are byte-identical to bindings/csharp;
  - the plugin .meta files enable each library for its own Editor OS and standalone player only;
  - the scenes' local references resolve, their scripts' GUIDs are the .meta GUIDs of the
    component files, and every serialized field they set is a public field of the script;
  - EditorBuildSettings lists the sample scene by its GUID.

  python3 tests/unity-stub/check_project.py <repository root>

Prints one line per check and ends with "project: N passed, M failed".
"""
import json
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
project = os.path.join(root, "unity-sample")
package = os.path.join(project, "Packages", "com.sinew.physics")

from unity_meta import check, platform_data, read, summary

def rel(path):
    return os.path.relpath(path, root)



# ---- package.json ----
try:
    manifest = json.loads(read(os.path.join(package, "package.json")))
    check(True, "package.json parses")
except (OSError, ValueError) as e:
    manifest = {}
    check(False, "package.json parses", str(e))
check(manifest.get("name") == "com.sinew.physics", "package name is com.sinew.physics", repr(manifest.get("name")))
check(re.fullmatch(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?", str(manifest.get("version", ""))) is not None,
      "package version is SemVer", repr(manifest.get("version")))
unity = str(manifest.get("unity", ""))
m = re.fullmatch(r"(\d{4})\.(\d+)", unity)
check(m is not None and (int(m.group(1)), int(m.group(2))) >= (2021, 2),
      "package unity field is a Unity version >= 2021.2 (Span<T> and .NET Standard 2.1)", repr(unity))
check(bool(manifest.get("displayName")) and bool(manifest.get("description")), "package has a displayName and a description")
for dep, version in manifest.get("dependencies", {}).items():
    check(re.fullmatch(r"com\.unity\.modules\.[a-z]+", dep) is not None and version == "1.0.0",
          "package dependency %s is a built-in module at 1.0.0" % dep, version)
for sample in manifest.get("samples", []):
    path = sample.get("path", "")
    check(path.startswith("Samples~/") and os.path.isdir(os.path.join(package, path)),
          "sample '%s' is a folder under Samples~" % sample.get("displayName"), path)

# ---- Packages/manifest.json ----
try:
    project_manifest = json.loads(read(os.path.join(project, "Packages", "manifest.json")))
    check(True, "Packages/manifest.json parses")
except (OSError, ValueError) as e:
    project_manifest = {}
    check(False, "Packages/manifest.json parses", str(e))
reference = project_manifest.get("dependencies", {}).get("com.sinew.physics", "")
target = os.path.normpath(os.path.join(project, "Packages", reference[len("file:"):])) if reference.startswith("file:") else ""
check(reference.startswith("file:") and os.path.isfile(os.path.join(target, "package.json"))
      and json.loads(read(os.path.join(target, "package.json"))).get("name") == "com.sinew.physics",
      "the project manifest references the package by a file: path that holds it", reference)
for dep in manifest.get("dependencies", {}):
    check(dep in project_manifest.get("dependencies", {}), "the project manifest lists the package's dependency " + dep)

# ---- asmdef ----
try:
    asmdef = json.loads(read(os.path.join(package, "Runtime", "Sinew.Runtime.asmdef")))
    check(asmdef.get("name") == "Sinew.Runtime" and asmdef.get("allowUnsafeCode") is True,
          "Runtime/Sinew.Runtime.asmdef is Sinew.Runtime with allowUnsafeCode")
except (OSError, ValueError) as e:
    check(False, "Runtime/Sinew.Runtime.asmdef parses", str(e))
try:
    asmdef = json.loads(read(os.path.join(package, "Editor", "Sinew.Editor.asmdef")))
    check(asmdef.get("name") == "Sinew.Editor" and asmdef.get("includePlatforms") == ["Editor"]
          and "Sinew.Runtime" in asmdef.get("references", []),
          "Editor/Sinew.Editor.asmdef is Sinew.Editor, Editor only, referencing Sinew.Runtime")
except (OSError, ValueError) as e:
    check(False, "Editor/Sinew.Editor.asmdef parses", str(e))

# ---- .meta files ----
GUID = re.compile(r"^guid: ([0-9a-f]{32})$", re.M)
guids = {}
assets = []
for top in (package, os.path.join(project, "Assets")):
    for dirpath, dirnames, filenames in os.walk(top):
        # Unity skips folders ending in ~ and hidden ones; the package's Samples~ content is
        # copied into a project on import, .meta files included, so its files are checked too.
        # Folders there need none: the import copies them under a new name, and Unity makes one.
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        in_tilde = any(part.endswith("~") for part in os.path.relpath(dirpath, top).split(os.sep))
        for d in dirnames:
            if not d.endswith("~") and not in_tilde:
                assets.append(os.path.join(dirpath, d))
        # Documentation~ is never imported nor copied (unlike a sample): no .meta there.
        in_docs = "Documentation~" in os.path.relpath(dirpath, top).split(os.sep)
        for name in filenames:
            if not name.endswith(".meta") and not name.startswith(".") and not in_docs:
                assets.append(os.path.join(dirpath, name))

missing = [rel(a) for a in assets if not os.path.isfile(a + ".meta")]
check(not missing, "every file and folder of the package and of Assets/ has a .meta (%d assets)" % len(assets), ", ".join(missing))
for kind in (".cs", ".asmdef", ".so", ".dll", ".dylib", ".unity"):
    items = [a for a in assets if a.endswith(kind)]
    if items:
        check(all(os.path.isfile(a + ".meta") for a in items), "every %s has a .meta (%d)" % (kind, len(items)))

metas = []
for top in (package, os.path.join(project, "Assets")):
    for dirpath, _, filenames in os.walk(top):
        metas += [os.path.join(dirpath, n) for n in filenames if n.endswith(".meta")]
bad = []
for meta in metas:
    found = GUID.findall(read(meta))
    if len(found) != 1:
        bad.append(rel(meta))
        continue
    guids.setdefault(found[0], []).append(meta)
check(not bad, "every .meta has one 32-hex-digit guid (%d files)" % len(metas), ", ".join(bad))
dupes = ["%s: %s" % (g, ", ".join(rel(p) for p in ps)) for g, ps in guids.items() if len(ps) > 1]
check(not dupes, "the %d GUIDs are unique across the package and Assets/" % len(guids), "; ".join(dupes))

plugin_names = ("libsinew.so", "sinew.dll", "libsinew.dylib")
orphans = [rel(m) for m in metas if not os.path.exists(m[:-5]) and os.path.basename(m[:-5]) not in plugin_names]
check(not orphans, "no .meta without its asset (plugin binaries excepted until packaged)", ", ".join(orphans))
unbuilt = [os.path.basename(m[:-5]) for m in metas if os.path.basename(m[:-5]) in plugin_names and not os.path.exists(m[:-5])]
if unbuilt:
    print("note   not packaged yet (scripts/package-unity.sh): " + ", ".join(unbuilt))

# ---- the wrapper copies ----
wrapper_sources = [os.path.join(root, "bindings", "csharp", n) for n in sorted(os.listdir(os.path.join(root, "bindings", "csharp"))) if n.endswith(".cs")]
wrapper_sources += [os.path.join(root, "bindings", "csharp", "Unity", n) for n in sorted(os.listdir(os.path.join(root, "bindings", "csharp", "Unity"))) if n.endswith(".cs")]
copies = os.path.join(package, "Runtime", "Wrapper")
different = [os.path.basename(s) for s in wrapper_sources
             if not os.path.isfile(os.path.join(copies, os.path.basename(s)))
             or read(os.path.join(copies, os.path.basename(s))) != read(s)]
extra = sorted(set(n for n in os.listdir(copies) if n.endswith(".cs")) - set(os.path.basename(s) for s in wrapper_sources))
check(not different and not extra, "Runtime/Wrapper holds exactly bindings/csharp's %d files, unchanged" % len(wrapper_sources),
      "differs or missing: %s; extra: %s" % (", ".join(different), ", ".join(extra)))

# ---- plugin import settings ----

expected = {
    "Linux/x86_64/libsinew.so": ("Linux", "Linux64", "x86_64"),
    "Windows/x86_64/sinew.dll": ("Windows", "Win64", "x86_64"),
    "macOS/libsinew.dylib": ("OSX", "OSXUniversal", "AnyCPU"),
}
for path, (editor_os, player, cpu) in expected.items():
    meta = os.path.join(package, "Runtime", "Plugins", path + ".meta")
    try:
        text = read(meta)
        data = platform_data(text)
    except (OSError, IndexError, AttributeError) as e:
        check(False, "Plugins/%s.meta is a PluginImporter with platformData" % path, str(e))
        continue
    check("PluginImporter:" in text, "Plugins/%s.meta is a PluginImporter" % path)
    editor = data.get(("Editor", "Editor"), (False, {}))
    check(editor[0] and editor[1].get("OS") == editor_os and editor[1].get("CPU") == cpu,
          "Plugins/%s loads in the %s Editor (%s)" % (path, editor_os, cpu), repr(editor))
    standalone = data.get(("Standalone", player), (False, {}))
    check(standalone[0] and standalone[1].get("CPU") == cpu,
          "Plugins/%s is included in %s players (%s)" % (path, player, cpu), repr(standalone))
    others = [k[1] for k, v in data.items() if k[0] == "Standalone" and k[1] != player and v[0]]
    check(not others, "Plugins/%s is excluded from every other player" % path, ", ".join(others))
    anyp = data.get(("", "Any"), (True, {}))
    check(not anyp[0] and not data.get(("Any", ""), (False, {}))[0], "Plugins/%s is not enabled for any platform" % path)


# ---- scenes ----
def script_guids():
    """GUID -> (class name, path) of every script .meta in the project."""
    out = {}
    for g, paths in guids.items():
        for p in paths:
            if p.endswith(".cs.meta"):
                out[g] = (os.path.basename(p)[:-len(".cs.meta")], p[:-len(".meta")])
    return out


FIELD = re.compile(r"^\s*public\s+(?!static|const|event|override|abstract|virtual)[\w.<>\[\], ]+?\s+(\w+)\s*(=[^;]*)?;", re.M)


def public_fields(path, scripts_by_class):
    text = read(path)
    fields = set(f[0] for f in FIELD.findall(text))
    base = re.search(r"class\s+\w+\s*:\s*(\w+)", text)
    if base and base.group(1) in scripts_by_class:
        fields |= public_fields(scripts_by_class[base.group(1)], scripts_by_class)
    return fields


scripts = script_guids()
scripts_by_class = {name: path for name, path in scripts.values()}

# ---- shipped assets (the presets): Unity YAML of a ScriptableObject of this package ----
for asset in sorted(a for a in assets if a.endswith(".asset") and a.startswith(package)):
    text = read(asset)
    name = os.path.basename(asset)[:-len(".asset")]
    script = re.search(r"^  m_Script: \{fileID: 11500000, guid: ([0-9a-f]{32}), type: 3\}$", text, re.M)
    cls = scripts.get(script.group(1)) if script else None
    check(text.startswith("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n")
          and cls is not None and ("\n  m_Name: %s\n" % name) in text,
          "%s: a ScriptableObject asset of %s named %s" % (rel(asset), cls[0] if cls else "an unknown script", name))
    if cls:
        keys = set(re.findall(r"^  (\w+):", text.split("m_EditorClassIdentifier:", 1)[1], flags=re.M))
        unknown = keys - public_fields(cls[1], scripts_by_class)
        check(not unknown, "%s: every field it sets exists on %s" % (rel(asset), cls[0]), ", ".join(sorted(unknown)))
    meta = read(asset + ".meta") if os.path.isfile(asset + ".meta") else ""
    check("NativeFormatImporter:" in meta and "mainObjectFileID: 11400000" in meta,
          "%s.meta imports it as a native asset (NativeFormatImporter, main object 11400000)" % rel(asset))
scenes = [os.path.join(project, "Assets", "Scenes", "Sample.unity"),
          os.path.join(package, "Samples~", "ClothBenchmark", "ClothBenchmark.unity"),
          os.path.join(package, "Samples~", "RagdollShooting", "RagdollShooting.unity"),
          os.path.join(package, "Samples~", "RagdollCrowd", "RagdollCrowd.unity"),
          os.path.join(package, "Samples~", "JellyDrop", "JellyDrop.unity"),
          os.path.join(package, "Samples~", "RiggedCharacter", "RiggedCharacter.unity")]
for scene in scenes:
    name = rel(scene)
    try:
        text = read(scene)
    except OSError as e:
        check(False, name + " exists", str(e))
        continue
    check(text.startswith("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"), name + " is a text-serialised Unity scene")
    docs = re.split(r"^--- !u!(\d+) &(\d+)\n", text, flags=re.M)
    objects = {}
    for i in range(1, len(docs), 3):
        objects[docs[i + 1]] = (int(docs[i]), docs[i + 2])
    check(len(objects) == len(docs) // 3, name + ": %d objects with unique fileIDs" % len(objects))
    local_refs = re.findall(r"\{fileID: (\d+)\}", text)
    dangling = sorted(set(r for r in local_refs if r != "0" and r not in objects))
    check(not dangling, name + ": every local {fileID: N} reference resolves", ", ".join(dangling))
    components = 0
    for fid, (cls, body) in objects.items():
        if cls == 1:
            for comp in re.findall(r"- component: \{fileID: (\d+)\}", body):
                owner = re.search(r"m_GameObject: \{fileID: (\d+)\}", objects.get(comp, (0, ""))[1])
                components += 1
                if not owner or owner.group(1) != fid:
                    check(False, name + ": component %s of GameObject %s points back to it" % (comp, fid))
        if cls != 114:
            continue
        script = re.search(r"m_Script: \{fileID: 11500000, guid: ([0-9a-f]{32}), type: 3\}", body)
        if not script or script.group(1) not in scripts:
            check(False, name + ": MonoBehaviour &%s names a script of this project by GUID" % fid,
                  script.group(1) if script else "no m_Script")
            continue
        cls_name, path = scripts[script.group(1)]
        check(True, name + ": MonoBehaviour &%s is %s (%s)" % (fid, cls_name, rel(path)))
        keys = re.findall(r"^  (\w+):", body.split("m_EditorClassIdentifier:", 1)[1], flags=re.M)
        fields = public_fields(path, scripts_by_class)
        unknown = [k for k in keys if k not in fields]
        check(not unknown, name + ": every field &%s sets is a public field of %s" % (fid, cls_name), ", ".join(unknown))
    check(components > 0, name + ": %d components belong to their GameObjects" % components)

build_settings = read(os.path.join(project, "ProjectSettings", "EditorBuildSettings.asset"))
sample_guid = GUID.findall(read(scenes[0] + ".meta"))
check(bool(sample_guid) and "path: Assets/Scenes/Sample.unity\n    guid: " + sample_guid[0] in build_settings,
      "EditorBuildSettings lists Assets/Scenes/Sample.unity by its GUID")
version = read(os.path.join(project, "ProjectSettings", "ProjectVersion.txt"))
check(re.search(r"^m_EditorVersion: 20(2[1-9]|[3-9]\d)\.\d+\.\d+f\d+$", version, re.M) is not None,
      "ProjectVersion.txt names a Unity 2021+ editor", version.strip())

summary("project")
