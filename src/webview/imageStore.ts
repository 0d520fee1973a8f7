// The images attached to each draft, in this webview's memory only: keyed by the draft object, so
// the bytes go away with it and are never serialized with it (drafts go to setState). DOM-free.
// Only the draft's identity is used, so this file does not import drafts.ts (which imports it).
import { sniffImageType, type ImageMimeType } from '../broker/questions/imageFormat';
import { LIMITS, type AnswerImage } from '../broker/contract/schemas';
import { t } from './l10n';

export interface AttachedImage {
  mimeType: ImageMimeType;
  name: string;
  /** The bytes in base64, as the answer carries them. */
  data: string;
  size: number;
  /** The bytes again, for the thumbnail's blob: URL. */
  blob: Blob;
}

export interface Attachments {
  images: AttachedImage[];
  /** Additions run one after another, so two quick pastes cannot pass the limit together. */
  queue: Promise<void>;
  /** The rendered list for this draft, if any: redrawn after every change, with the problems to show. */
  redraw?: (problems: readonly string[]) => void;
}

const byDraft = new WeakMap<object, Attachments>();

export function attachmentsOf(draft: object): Attachments {
  let entry = byDraft.get(draft);
  if (!entry) byDraft.set(draft, (entry = { images: [], queue: Promise.resolve() }));
  return entry;
}

/** The images as an answer carries them. */
export const answerImages = (draft: object): AnswerImage[] => (byDraft.get(draft)?.images ?? []).map(({ mimeType, data, name }) => ({ mimeType, data, name }));

export const imageKinds = () => t('PNG, JPEG, GIF or WebP');
export const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
export const MAX_MEGABYTES = `${LIMITS.imageMaxBytes / (1024 * 1024)} MB`;

/** Reads and checks one file: an attached image, or the reason it is refused. The size is checked before reading. */
export async function readImage(file: Blob & { name?: string }): Promise<AttachedImage | { problem: string }> {
  const name = (file.name || 'image').slice(0, 200);
  if (file.size > LIMITS.imageMaxBytes) return { problem: t('"{0}" is {1}; an image may be at most {2}.', name, megabytes(file.size), MAX_MEGABYTES) };
  const bytes = new Uint8Array(await file.arrayBuffer());
  // The first bytes decide, never the declared type or the file name.
  const mimeType = sniffImageType(bytes);
  if (!mimeType) return { problem: t('"{0}" is not a {1} image.', name, imageKinds()) };
  return { mimeType, name, data: toBase64(bytes), size: bytes.length, blob: new Blob([bytes], { type: mimeType }) };
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
