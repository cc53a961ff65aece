/** The part after the comma of the file's data URL. */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const result = reader.result;
      if (typeof result !== 'string') {
        reject(new Error('Failed to convert file to base64'));
        return;
      }
      resolve(result.slice(result.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new Error('Failed to convert file to base64'));
    reader.readAsDataURL(file);
  });
}

/** POST /api/upload's JSON body, {imageData, filename}, as the bytes to send. */
export async function uploadBody(file: File): Promise<Blob> {
  const imageData = await fileToBase64(file);
  return new Blob([JSON.stringify({ imageData, filename: file.name })], { type: 'application/json' });
}
