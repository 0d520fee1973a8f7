// Which image an attachment really is, from its first bytes (never from a declared type or a file
// name), and how many bytes its base64 holds. Pure: used by the panel and by the broker's reply check.
import type { IMAGE_MIME_TYPES } from '../contract/schemas';

export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) => prefix.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image type the bytes start with, or undefined for anything else. 12 bytes are enough. */
export function sniffImageType(bytes: Uint8Array): ImageMimeType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

/** The number of bytes a (valid) base64 string decodes to. */
export function base64ByteLength(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** The first bytes of a base64 string, decoded without touching the rest. */
export function base64Head(data: string, chars = 24): Uint8Array {
  const head = data.slice(0, chars - (chars % 4));
  try {
    return Uint8Array.from(atob(head), (c) => c.charCodeAt(0));
  } catch {
    return new Uint8Array();
  }
}
