/** Thrown for input the engine refuses: unsupported type, corrupt data, too many pixels, unknown style. */
export class ImageInputError extends Error {
  override readonly name = 'ImageInputError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
