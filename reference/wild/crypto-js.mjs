#!/usr/bin/env node
// crypto-js: CryptoJS.HmacSHA256 and CryptoJS.SHA256 on WordArrays from
// its own UTF-8 parser (CryptoJS.enc.Utf8), answers through its own hex
// encoder (CryptoJS.enc.Hex). Manifest: harness/wild/crypto-js.toml.

import CryptoJS from 'crypto-js';
import { fromHex, installed, serveStack } from './stack.mjs';

const utf8 = (text) => CryptoJS.enc.Utf8.parse(text);
const bytes = (words) => fromHex(CryptoJS.enc.Hex.stringify(words));

serveStack({
  name: `crypto-js ${installed('crypto-js')} (HmacSHA256, SHA256, enc.Utf8)`,
  hmacSha256: (keyText, messageText) => bytes(CryptoJS.HmacSHA256(utf8(messageText), utf8(keyText))),
  sha256: (text) => bytes(CryptoJS.SHA256(utf8(text))),
});
