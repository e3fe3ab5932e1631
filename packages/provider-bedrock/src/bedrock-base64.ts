/** Base64 ↔ bytes without `Buffer`, so the package runs wherever the AWS SDK does. */

/** The bytes of a base64 string, or `undefined` when it is not valid base64. */
export function bytesFromBase64(base64: string): Uint8Array | undefined {
  try {
    return Uint8Array.from(atob(base64.replace(/\s+/g, "")), (character) => character.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Base64 text for bytes. */
export function base64FromBytes(bytes: Uint8Array): string {
  let binary = "";
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}
