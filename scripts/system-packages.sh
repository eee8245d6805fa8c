# Sourced by the test scripts (not run): what to do when a system tool is missing.
#
# need_system COMMAND PACKAGE...   succeeds when COMMAND is on PATH. When it is not, and this is
#                                  root on a machine with apt-get (CI, a container), it installs
#                                  the Debian PACKAGEs; as a normal user it installs nothing and
#                                  fails, so the caller skips that check with `skipped`.
# need_foreign_arch ARCH           succeeds when dpkg knows the foreign architecture ARCH (so
#                                  `apt-get download PACKAGE:ARCH` works, as any user); as root it
#                                  adds it and updates the package lists, else it fails.
# skipped WHAT PACKAGE...          prints the loud line that says WHAT did not run and the exact
#                                  command that would make it run.
#
# QE_APT=0 never calls apt-get, even as root (the test command checks the normal user's path so).

qe_apt_updated=0

# Whether apt-get may be called: root, apt-get present, and QE_APT not 0.
qe_may_apt() {
    [ "$(id -u)" = 0 ] && [ "${QE_APT:-1}" != 0 ] && command -v apt-get > /dev/null
}

# apt-get ARGS..., only as root (a normal user never reaches it: qe_may_apt fails first; the check
# stands on the line itself so that no apt-get runs without one).
qe_apt_get() {
    [ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get "$@"
}

need_system() {
    local cmd=$1
    shift
    command -v "$cmd" > /dev/null && return 0
    if qe_may_apt; then
        printf -- '-- installing %s (apt-get, as root)\n' "$*"
        if [ "$qe_apt_updated" = 0 ]; then
            qe_apt_get update -qq || true
            qe_apt_updated=1
        fi
        qe_apt_get install -y -qq "$@" > /dev/null || true
        command -v "$cmd" > /dev/null && return 0
    fi
    return 1
}

need_foreign_arch() {
    command -v dpkg > /dev/null || return 1
    dpkg --print-foreign-architectures | grep -qx "$1" && return 0
    if qe_may_apt; then
        printf -- '-- adding the foreign architecture %s to dpkg, for apt-get download (as root)\n' "$1"
        dpkg --add-architecture "$1"
        qe_apt_get update -qq || true
        qe_apt_updated=1
        return 0
    fi
    return 1
}

skipped() {
    local what=$1
    shift
    echo "!!!! SKIPPED: $what: it needs $*, which needs root to install; run: sudo apt-get install $* !!!!"
}
