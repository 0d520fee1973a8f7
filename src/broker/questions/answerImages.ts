// Images in a response, for every transport: described (never their bytes) in the text the model
// reads, and listed in answer order for the image parts that follow it.
import { base64ByteLength, type ImageMimeType } from './imageFormat';
import type { AnswerImage, QuestionResponse } from '../contract/schemas';

/** What the model may read about an image in text: never its bytes. */
export interface ImageDescription {
  mimeType: ImageMimeType;
  name?: string;
  bytes: number;
}

export const describeImage = (image: AnswerImage): ImageDescription => ({
  mimeType: image.mimeType,
  ...(image.name !== undefined ? { name: image.name } : {}),
  bytes: base64ByteLength(image.data),
});

/** The response with each image's base64 replaced by its type, name and size. */
export function withImagesDescribed(response: QuestionResponse): object {
  if (!attachedImages(response).length) return response;
  const answers = Object.fromEntries(Object.entries(response.answers ?? {}).map(([id, a]) => [id, a.images?.length ? { ...a, images: a.images.map(describeImage) } : a]));
  return { ...response, answers };
}

/** Every attached image, in the order of the answers: what the image parts after the text carry. */
export const attachedImages = (response: QuestionResponse): AnswerImage[] => Object.values(response.answers ?? {}).flatMap((a) => (a.skipped ? [] : (a.images ?? [])));
