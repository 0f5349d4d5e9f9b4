/**
 * SHA-256 in hex. node:crypto is loaded on the first call, not at import: the Action's pool-file
 * run never hashes (its file is checked by CRC-32), and loading node:crypto costs a cold start
 * about a fifth of a bare `node -e 0` (docs/quality.md, "Action start").
 */
export function sha256Hex(data: string | Uint8Array): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(data).digest('hex');
}
