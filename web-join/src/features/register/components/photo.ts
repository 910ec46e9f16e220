/** The photo's side in pixels once cropped: enough for a front-desk check, small to upload on a phone. */
export const PHOTO_SIZE = 512;

/** The centred square of an image of this size (a portrait photo loses top and bottom evenly). */
export function centreSquare(width: number, height: number) {
  const side = Math.min(width, height);
  return { x: Math.round((width - side) / 2), y: Math.round((height - side) / 2), side };
}

async function loadImage(file: Blob): Promise<{ source: CanvasImageSource; width: number; height: number }> {
  if (typeof createImageBitmap === "function") {
    const bitmap = await createImageBitmap(file);
    return { source: bitmap, width: bitmap.width, height: bitmap.height };
  }
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    return { source: image, width: image.naturalWidth, height: image.naturalHeight };
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * Crops a photo to its centred square and shrinks it to {@link PHOTO_SIZE} as a JPEG, in the
 * browser, so a 12-megapixel phone photo uploads as ~50 KB.
 */
export async function squarePhoto(file: Blob): Promise<Blob> {
  const { source, width, height } = await loadImage(file);
  const { x, y, side } = centreSquare(width, height);
  const size = Math.min(PHOTO_SIZE, side);
  const canvas = document.createElement("canvas");
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("This browser cannot prepare the photo. Try another browser.");
  context.drawImage(source, x, y, side, side, 0, 0, size, size);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("The photo could not be prepared. Try another."))),
      "image/jpeg",
      0.85,
    ),
  );
}
