#!/usr/bin/env python3
# seccomp-no-uring.py CMD... - run CMD with io_uring_setup(2) refused (EPERM) by a seccomp
# filter, as a container runtime's default profile does; everything else is allowed.
import ctypes
import os
import struct
import sys

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO = 0x7FFF0000, 0x00050000
NR_IO_URING_SETUP = 425  # the same number on every architecture (the generic table)
EPERM = 1


def insn(code, jt, jf, k):
    return struct.pack("HBBI", code, jt, jf, k)


prog = b"".join([
    insn(0x20, 0, 0, 0),                        # ld [0]: seccomp_data.nr
    insn(0x15, 0, 1, NR_IO_URING_SETUP),        # jeq #425, next, skip
    insn(0x06, 0, 0, SECCOMP_RET_ERRNO | EPERM),
    insn(0x06, 0, 0, SECCOMP_RET_ALLOW),
])
buf = ctypes.create_string_buffer(prog)


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


fprog = SockFprog(len(prog) // 8, ctypes.addressof(buf))
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) or \
        libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0):
    sys.exit(f"seccomp-no-uring: prctl: {os.strerror(ctypes.get_errno())}")
os.execvp(sys.argv[1], sys.argv[1:])
