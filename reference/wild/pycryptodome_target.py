#!/usr/bin/env python3
"""pycryptodome's HMAC (Crypto.Hash.HMAC over Crypto.Hash.SHA256) and SHA256
as a protocol v1 target, under the shared Python scheme logic (scheme.py).
The text is encoded by Python's str.encode("utf-8"): pycryptodome takes
bytes only. Manifest: harness/wild/pycryptodome.toml.
"""
import sys

import Crypto
from Crypto.Hash import HMAC, SHA256

from scheme import Scheme, serve


def hmac_sha256(key_text, message_text):
    return HMAC.new(key_text.encode("utf-8"), message_text.encode("utf-8"), digestmod=SHA256).digest()


def sha256(text):
    return SHA256.new(text.encode("utf-8")).digest()


NAME = f"pycryptodome {Crypto.__version__} (Hash.HMAC, Hash.SHA256) under provably's Python scheme logic"

if __name__ == "__main__":
    sys.exit(serve(NAME, Scheme(hmac_sha256, sha256).ops()))
