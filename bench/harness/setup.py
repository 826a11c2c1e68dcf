"""setup.py — everything the benchmark needs before it measures: Debian
packages, the Lector driver build, the harness's own binaries (the ODBC
client twice, for unixODBC and iODBC, and the driverless baselines), and a
record of the environment the figures come from.
"""

import datetime
import os
import platform
import socket
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
REPO = os.path.dirname(BENCH)

# What the harness itself builds and runs with; drivers a side names come on
# top (its `package` key).
PACKAGES = ["gcc", "cmake", "make", "sqlite3", "libsqlite3-dev", "unixodbc",
            "unixodbc-dev", "odbcinst", "iodbc", "libiodbc2", "libshp-dev",
            "libfreexl-dev", "nodejs", "npm", "mdbtools"]
OPTIONAL = ["gnuplot-nox", "linux-perf"]
# Versions recorded with the results.
VERSIONED = ["unixodbc", "libiodbc2", "libsqliteodbc", "libsqlite3-0", "libshp2",
             "sqlite3", "libfreexl1", "libreoffice-calc-nogui", "odbc-mdbtools",
             "mdbtools", "nodejs", "gcc", "linux-perf", "gnuplot-nox"]
IODBC_LIB = "/usr/lib/x86_64-linux-gnu/libiodbc.so.2"


def log(msg):
    print("bench: " + msg, flush=True)


def installed(pkg):
    r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", pkg],
                       capture_output=True, text=True)
    return "install ok installed" in r.stdout


def version(pkg):
    r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg],
                       capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else None


def ensure_packages(packages):
    """apt-get install what is missing; returns the packages still missing."""
    missing = [p for p in packages if not installed(p)]
    if not missing:
        return []
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    log("installing " + " ".join(missing))
    cmd = sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + missing
    if subprocess.run(cmd, env=env, capture_output=True).returncode != 0:
        subprocess.run(sudo + ["apt-get", "update", "-qq"], env=env, capture_output=True)
        subprocess.run(cmd, env=env, capture_output=True)
    return [p for p in missing if not installed(p)]


def _run(cmd, what, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-4000:] + r.stderr[-4000:])
        raise SystemExit("bench: %s failed: %s" % (what, " ".join(cmd)))
    return r.stdout


def iodbc_include(build):
    return os.path.join(build, "deps", "iodbc", "usr", "include", "iodbc")


def build_driver(build, rebuild=True):
    """Configure (once) and build the two driver libraries in `build`."""
    build = os.path.abspath(build)
    inc = iodbc_include(build)
    if not os.path.exists(os.path.join(inc, "sql.h")):
        log("unpacking iODBC headers (scripts/deps.sh)")
        _run([os.path.join(REPO, "scripts", "deps.sh"), build], "scripts/deps.sh")
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        log("configuring %s (RelWithDebInfo)" % build)
        _run(["cmake", "-S", REPO, "-B", build, "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
              "-DLECTOR_IODBC_INCLUDE=" + inc], "cmake configure")
    if rebuild or not os.path.exists(os.path.join(build, "liblectorodbc.so")):
        log("building the driver in %s" % build)
        _run(["cmake", "--build", build, "-j%d" % (os.cpu_count() or 2), "--target",
              "lectorodbc", "lectorodbc-iodbc"], "driver build")
    for lib in ("liblectorodbc.so", "liblectorodbc-iodbc.so"):
        if not os.path.exists(os.path.join(build, lib)):
            raise SystemExit("bench: %s was not built" % lib)
    return build


def _compile(out, sources, flags, libs):
    if os.path.exists(out) and all(os.path.getmtime(out) >= os.path.getmtime(s)
                                   for s in sources + [os.path.join(BENCH, "client", h)
                                                       for h in ("canon.h", "cycles.h")]):
        return
    cc = os.environ.get("CC", "cc")
    _run([cc, "-std=c11", "-O2", "-g", "-Wall", "-Wextra", "-Werror"] + flags +
         ["-o", out] + sources + libs + ["-lm"], "compiling " + os.path.basename(out))


def build_programs(bindir, build):
    """The client (unixODBC and iODBC) and the baselines; returns what failed."""
    os.makedirs(bindir, exist_ok=True)
    shared = [os.path.join(BENCH, "client", f) for f in ("canon.c", "cycles.c")]
    client = os.path.join(BENCH, "client", "client.c")
    _compile(os.path.join(bindir, "client"), [client] + shared, [], ["-lodbc"])
    _compile(os.path.join(bindir, "client-iodbc"), [client] + shared,
             ["-I" + iodbc_include(build)], [IODBC_LIB])
    failed = {}
    for name, libs in (("sqlite_loop", ["-lsqlite3"]), ("shapelib_loop", ["-lshp"]),
                       ("freexl_loop", ["-lfreexl"]), ("libreoffice_csv", [])):
        try:
            _compile(os.path.join(bindir, name),
                     [os.path.join(BENCH, "baselines", name + ".c")] + shared, [], libs)
        except SystemExit as e:
            failed[name] = str(e)
    return failed


def _first_line(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
        return (r.stdout or r.stderr).splitlines()[0].strip()
    except (OSError, IndexError):
        return None


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def _mem_total_kb():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _os_name():
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return None


def _lector_revision():
    head = _first_line(["git", "-C", REPO, "rev-parse", "HEAD"])
    r = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                       capture_output=True, text=True)
    dirty = bool(r.stdout.strip()) if r.returncode == 0 else None
    return {"commit": head, "modified_files": dirty}


def _build_type(build):
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_BUILD_TYPE:"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None


def environment(build):
    cc = os.environ.get("CC", "cc")
    return {
        "hostname": socket.gethostname(),
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
        "cpu_model": _cpu_model(),
        "cores": os.cpu_count(),
        "memory_kb": _mem_total_kb(),
        "kernel": platform.release(),
        "os": _os_name(),
        "compiler": _first_line([cc, "--version"]),
        "python": platform.python_version(),
        "load_average_at_start": list(os.getloadavg()),
        "lector": dict(_lector_revision(), build_type=_build_type(build), build_dir=build),
        "packages": {p: version(p) for p in VERSIONED},
    }
