"""Build a model into a shared library: mbgen, then cc, cached by content.

The runtime is compiled once per runtime build configuration (its sources, the flags, the
compiler) into a position-independent archive; each model (its file, the mbgen options, the
runtime configuration, mbgen itself) into a shared library with the generated C and the shim
(_shim.c). Both live under the cache directory: $MBSIM_CACHE, else $XDG_CACHE_HOME/mbsim, else
~/.cache/mbsim. Where the tools are: the source tree this package sits in (python/mbsim or
build/python/mbsim: build/mbgen and runtime/), or an installed prefix (PREFIX/bin/mbgen and
PREFIX/share/mbgen/runtime, the package in PREFIX/lib/pythonX.Y/dist-packages/mbsim);
$MBSIM_MBGEN and $MBSIM_RUNTIME override them.
"""
import fcntl
import hashlib
import os
import shlex
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SHIM = os.path.join(HERE, "_shim.c")
# The project's flags (Makefile CSTD, WARN, -pedantic, OPT) plus what a shared library needs;
# the runtime as build/libmbrt.a is built: double, built-in dense LU and Cholesky (-lm only).
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-Wdouble-promotion", "-pedantic",
          "-O2", "-g", "-fPIC", "-DMB_NO_LAPACKE"]


class BuildError(Exception):
    """A model file mbgen refuses, or a compiler failure: the tool's own message."""


def _find_layout():
    """(mbgen, runtime directory) from the environment, the source tree or the prefix."""
    mbgen = os.environ.get("MBSIM_MBGEN")
    rt = os.environ.get("MBSIM_RUNTIME")
    d = HERE
    for _ in range(4):   # python/mbsim, build/python/mbsim: the tree above
        d = os.path.dirname(d)
        if os.path.isfile(os.path.join(d, "runtime", "mb_sim.h")) and \
           os.path.isfile(os.path.join(d, "generator", "main.lua")):
            mbgen = mbgen or os.path.join(d, "build", "mbgen")
            rt = rt or os.path.join(d, "runtime")
            break
    else:   # PREFIX/lib/pythonX.Y/dist-packages/mbsim
        prefix = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
        mbgen = mbgen or os.path.join(prefix, "bin", "mbgen")
        rt = rt or os.path.join(prefix, "share", "mbgen", "runtime")
    if not os.path.isfile(os.path.join(rt, "mb_sim.h")):
        raise BuildError(f"mbsim: no runtime sources at {rt} (set MBSIM_RUNTIME)")
    if not os.access(mbgen, os.X_OK):
        raise BuildError(f"mbsim: no mbgen at {mbgen} (run make, or set MBSIM_MBGEN)")
    return mbgen, rt


def cache_dir():
    d = os.environ.get("MBSIM_CACHE")
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        d = os.path.join(base, "mbsim")
    os.makedirs(d, exist_ok=True)
    return d


def _cc():
    """The compiler command as a list ($CC may hold words: "ccache gcc")."""
    return shlex.split(os.environ.get("CC", "cc")) or ["cc"]


_cc_id = {}


def _compiler_id(cc):
    key = " ".join(cc)
    if key not in _cc_id:
        try:
            r = subprocess.run(cc + ["--version"], capture_output=True, text=True, check=True)
        except (OSError, subprocess.CalledProcessError) as e:
            raise BuildError(f"mbsim: the C compiler {key!r} does not run: {e}") from None
        _cc_id[key] = key + "\0" + r.stdout
    return _cc_id[key]


def _hash_files(h, paths):
    for p in sorted(paths):
        h.update(os.path.basename(p).encode() + b"\0")
        with open(p, "rb") as f:
            h.update(f.read())
        h.update(b"\0")


def _run(cmd, what):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise BuildError(f"{what} failed (exit {r.returncode}): {(r.stderr or r.stdout).strip()}")
    return r


class _Lock:
    """An exclusive lock on the cache while building (several processes may build at once)."""
    def __init__(self, d):
        self.path = os.path.join(d, ".lock")

    def __enter__(self):
        self.f = open(self.path, "w")
        fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *a):
        fcntl.flock(self.f, fcntl.LOCK_UN)
        self.f.close()


def _runtime_archive(cache, rt, cc):
    """The runtime compiled position-independent: cache/runtime-<key>/libmbrt_pic.a."""
    srcs = [os.path.join(rt, f) for f in os.listdir(rt) if f.endswith((".c", ".h"))]
    h = hashlib.sha256()
    _hash_files(h, srcs)
    h.update(("\0".join(CFLAGS) + "\0" + _compiler_id(cc)).encode())
    key = h.hexdigest()[:20]
    out = os.path.join(cache, f"runtime-{key}")
    lib = os.path.join(out, "libmbrt_pic.a")
    if os.path.isfile(lib):
        return key, lib
    tmp = tempfile.mkdtemp(prefix="runtime-", dir=cache)
    try:
        cs = sorted(s for s in srcs if s.endswith(".c"))
        objs, procs = [], []
        jobs = max(1, os.cpu_count() or 1)
        for s in cs:   # a compiler per core at a time
            o = os.path.join(tmp, os.path.basename(s)[:-2] + ".o")
            objs.append(o)
            procs.append((s, subprocess.Popen(cc + CFLAGS + ["-I", rt, "-c", s, "-o", o],
                                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)))
            while sum(p.poll() is None for _, p in procs) >= jobs:
                procs[[p.poll() is None for _, p in procs].index(True)][1].wait()
        for s, p in procs:
            msg = p.communicate()[0]
            if p.returncode != 0:
                raise BuildError(f"compiling the runtime ({s}) failed: {msg.strip()}")
        _run(["ar", "rcs", os.path.join(tmp, "libmbrt_pic.a")] + objs, "ar")
        for o in objs:
            os.remove(o)
        try:
            os.rename(tmp, out)
        except OSError:   # built meanwhile by another process
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return key, lib


def _mbgen_id(mbgen):
    """What mbgen's output depends on besides the model: the binary, its Lua and templates."""
    h = hashlib.sha256()
    _hash_files(h, [mbgen])
    data = os.environ.get("MBGEN_DATADIR")
    cands = [data] if data else []
    base = os.path.dirname(os.path.abspath(mbgen))
    cands += [os.path.dirname(base), os.path.join(os.path.dirname(base), "share", "mbgen")]
    for d in cands:
        if d and os.path.isfile(os.path.join(d, "generator", "main.lua")):
            for sub in ("generator", "templates"):
                sd = os.path.join(d, sub)
                if os.path.isdir(sd):
                    _hash_files(h, [os.path.join(sd, f) for f in os.listdir(sd)
                                    if f.endswith((".lua", ".in"))])
            break
    return h.hexdigest()


def build(path, defines=None, mbgen_flags=()):
    """The shared library of the model file at path: (library path, model name)."""
    if not os.path.isfile(path):
        raise BuildError(f"mbsim: cannot read model file {path}: no such file")
    mbgen, rt = _find_layout()
    cc = _cc()
    cache = cache_dir()
    opts = []
    for k, v in sorted((defines or {}).items()):
        opts += ["-D", f"{k}={v}"]
    opts += list(mbgen_flags)
    with _Lock(cache):
        rkey, rlib = _runtime_archive(cache, rt, cc)
        h = hashlib.sha256()
        with open(path, "rb") as f:
            h.update(f.read())
        h.update(("\0".join(opts) + "\0" + rkey + "\0" + _mbgen_id(mbgen)).encode())
        _hash_files(h, [SHIM])
        key = h.hexdigest()[:24]
        out = os.path.join(cache, f"model-{key}")
        done = os.path.join(out, "name")
        if os.path.isfile(done):
            with open(done) as f:
                name = f.read().strip()
            return os.path.join(out, f"lib{name}.so"), name
        tmp = tempfile.mkdtemp(prefix="model-", dir=cache)
        try:
            gen = os.path.join(tmp, "gen")
            r = subprocess.run([mbgen, path] + opts + ["-o", gen], capture_output=True, text=True)
            if r.returncode != 0:
                raise BuildError((r.stderr or r.stdout).strip() or f"mbgen failed (exit {r.returncode})")
            names = [f[:-7] for f in os.listdir(gen) if f.endswith("_data.c")]
            if len(names) != 1:
                raise BuildError(f"mbgen wrote no model into {gen}")
            name = names[0]
            lib = os.path.join(tmp, f"lib{name}.so")
            inc = ["-I", rt, "-I", gen]
            _run(cc + CFLAGS + inc + ["-c", os.path.join(gen, name + ".c"), "-o",
                                           os.path.join(tmp, "model.o")], "compiling the generated model")
            _run(cc + CFLAGS + inc + [f"-DMBPY_MODEL={name}", "-c", SHIM, "-o",
                                           os.path.join(tmp, "shim.o")], "compiling the shim")
            _run(cc + ["-shared", "-o", lib, os.path.join(tmp, "shim.o"),
                  os.path.join(tmp, "model.o"), rlib, "-lm"], "linking the model")
            with open(os.path.join(tmp, "name"), "w") as f:
                f.write(name + "\n")
            if os.path.isdir(out):
                shutil.rmtree(out)
            os.rename(tmp, out)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return os.path.join(out, f"lib{name}.so"), name
