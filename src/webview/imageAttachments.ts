// Images the user attaches to an answer: pasted, dropped, or picked with "Attach image". Each is
// checked by its first bytes and its size (imageStore.ts), shown as a thumbnail with a remove
// button, and sent as base64 with the answer. The bytes live in this webview's memory only, never
// in setState: after a reload the panel says how many were lost.
import { IMAGE_MIME_TYPES, LIMITS } from '../broker/contract/schemas';
import { el } from './dom';
import type { Draft } from './drafts';
import { t } from './l10n';
import { attachmentsOf, imageKinds, MAX_MEGABYTES, megabytes, readImage, type AttachedImage, type Attachments } from './imageStore';
import type { ToolkitButton } from './toolkit';

const describeSize = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : megabytes(bytes));

/** Adds files to the draft's images, up to the limit; what was refused is shown and announced. */
export function attachFiles(draft: Draft, files: readonly (Blob & { name?: string })[], onChange: () => void): Promise<void> {
  const entry = attachmentsOf(draft);
  entry.queue = entry.queue.then(async () => {
    const problems: string[] = [];
    const added: string[] = [];
    for (const file of files) {
      const name = file.name || t('image');
      if (entry.images.length >= LIMITS.imagesPerAnswer) {
        problems.push(t('"{0}" was not added: an answer takes at most {1} images.', name, LIMITS.imagesPerAnswer));
        continue;
      }
      const read = await readImage(file).catch(() => ({ problem: t('"{0}" could not be read.', name) }));
      if ('problem' in read) problems.push(read.problem);
      else {
        entry.images.push(read);
        added.push(read.name);
      }
    }
    changed(draft, entry, onChange, problems);
    const total = entry.images.length;
    announce(
      [
        ...(added.length
          ? [total === 1 ? t('Attached {0}; 1 image on this answer.', added.join(t(', '))) : t('Attached {0}; {1} images on this answer.', added.join(t(', ')), total)]
          : []),
        ...problems,
      ].join(' '),
    );
  });
  return entry.queue;
}

export function removeImage(draft: Draft, index: number, onChange: () => void): void {
  const entry = attachmentsOf(draft);
  const [removed] = entry.images.splice(index, 1);
  if (!removed) return;
  changed(draft, entry, onChange, []);
  announce(t('Removed {0}.', removed.name));
}

function changed(draft: Draft, entry: Attachments, onChange: () => void, problems: readonly string[]): void {
  // Only the count is saved with the draft, so a reloaded panel can say what was lost.
  draft.images = entry.images.length;
  onChange();
  entry.redraw?.(problems);
}

/** The panel's live region (see questionPanelView.ts): errors and changes are read out. */
function announce(text: string): void {
  const region = document.getElementById('announcer');
  if (region && text) region.textContent = text;
}

const imageFiles = (data: DataTransfer | null): File[] => (data ? [...data.files] : []);
const isFileDrag = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;

/** The attachments area on screen: pastes and drops anywhere in the panel go to its answer. */
let shown: { root: HTMLElement; draft: Draft; onChange: () => void } | undefined;
const target = () => (shown?.root.isConnected ? shown : undefined);

// Registered once, on the document: VS Code takes over a file drag (for dropping into an editor)
// unless the webview claims it on dragenter, and a paste should attach wherever the focus is.
let listening = false;
function listenForPastesAndDrops(): void {
  if (listening) return;
  listening = true;
  document.addEventListener('paste', (event) => {
    const files = imageFiles(event.clipboardData);
    const to = target();
    // A paste that carries text stays a text paste.
    if (!to || files.length === 0 || event.clipboardData?.getData('text/plain')) return;
    event.preventDefault();
    void attachFiles(to.draft, files, to.onChange);
  });
  const over = (event: DragEvent) => {
    const to = target();
    if (!to || !isFileDrag(event)) return;
    event.preventDefault();
    event.dataTransfer!.dropEffect = 'copy';
    to.root.classList.add('drop-target');
  };
  document.addEventListener('dragenter', over);
  document.addEventListener('dragover', over);
  document.addEventListener('dragleave', (event) => {
    if (event.relatedTarget === null) target()?.root.classList.remove('drop-target');
  });
  document.addEventListener('drop', (event) => {
    const to = target();
    if (!to) return;
    to.root.classList.remove('drop-target');
    const files = imageFiles(event.dataTransfer);
    if (files.length === 0) return;
    event.preventDefault();
    void attachFiles(to.draft, files, to.onChange);
  });
}

/** The "Attach image" button, the thumbnails with their remove buttons, and the problems of the last attempt. */
export function renderImageAttachments(draft: Draft, onChange: () => void): HTMLElement {
  const entry = attachmentsOf(draft);
  const input = el('input', { type: 'file', class: 'image-input', accept: IMAGE_MIME_TYPES.join(','), multiple: true, hidden: true, tabindex: '-1' });
  const attach = el('vscode-button', { appearance: 'secondary', class: 'image-attach', 'aria-label': t('Attach image to this answer') }, t('Attach image')) as ToolkitButton;
  const hint = el('span', { class: 'hint' }, t('or paste or drop: {0}, up to {1}, {2} each', imageKinds(), LIMITS.imagesPerAnswer, MAX_MEGABYTES));
  const list = el('ul', { class: 'thumbnails', 'aria-label': t('Attached images') });
  const errors = el('div', { class: 'image-errors' });
  const root = el('div', { class: 'attachments' }, el('div', { class: 'attach-row' }, attach, hint, input), list, errors);

  attach.addEventListener('click', () => input.click());
  input.addEventListener('change', () => {
    const files = [...(input.files ?? [])];
    input.value = '';
    void attachFiles(draft, files, onChange);
  });
  shown = { root, draft, onChange };
  listenForPastesAndDrops();

  const redraw = (problems: readonly string[]) => {
    list.replaceChildren(...entry.images.map((image, i) => thumbnail(image, () => remove(i))));
    errors.replaceChildren(...problems.map((p) => el('p', { class: 'image-error' }, p)));
  };
  const remove = (index: number) => {
    removeImage(draft, index, onChange);
    // Focus stays in the list (or returns to the button) for keyboard users.
    (list.querySelectorAll<HTMLElement>('.image-remove')[Math.min(index, entry.images.length - 1)] ?? attach).focus();
  };
  entry.redraw = redraw;
  // The bytes are never saved: a reloaded panel has the count of what was attached, not the images.
  const lost = (draft.images ?? 0) - entry.images.length;
  redraw(
    lost > 0
      ? [
          lost === 1
            ? t('1 attached image was not kept when the panel reloaded; attach it again.')
            : t('{0} attached images were not kept when the panel reloaded; attach them again.', lost),
        ]
      : [],
  );
  if (lost > 0) draft.images = entry.images.length;
  return root;
}

function thumbnail(image: AttachedImage, onRemove: () => void): HTMLElement {
  const url = URL.createObjectURL(image.blob);
  const img = el('img', { class: 'thumbnail', src: url, alt: image.name });
  // Once shown, the image no longer needs its URL; revoking it frees the reference.
  const revoke = () => URL.revokeObjectURL(url);
  img.addEventListener('load', revoke, { once: true });
  img.addEventListener('error', revoke, { once: true });
  const remove = el('button', { class: 'link-button image-remove', type: 'button', 'aria-label': t('Remove image {0}', image.name) }, t('Remove'));
  remove.addEventListener('click', onRemove);
  return el('li', { class: 'attached-image' }, img, el('span', { class: 'image-name' }, image.name), el('span', { class: 'image-size' }, describeSize(image.size)), remove);
}
