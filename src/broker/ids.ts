import { nanoid } from 'nanoid';

/** Request ids: short, URL-safe and unguessable, so a stale panel cannot answer a newer request by accident. */
export const newRequestId = (): string => nanoid(12);
