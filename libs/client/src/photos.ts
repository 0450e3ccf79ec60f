import type { Client } from 'openapi-fetch';
import type { paths as ApiPaths } from './generated/api';

/**
 * Uploads a photo of a pet (`uploadPetPhoto`) as the multipart part `file`: a `Blob`, such as a browser's
 * `File` or `new Blob([bytes])` in Node. The service recognises the image by its bytes, so the Blob's type
 * does not matter. The answer is the `202` and its `Photo` in `processing`: its `Location` (and
 * `getPetPhoto`) tells when it is `ready` or `failed`. Sent through the client's fetch, so a `429` or `503`
 * is retried with the same `Idempotency-Key`, adding no second photo.
 */
export function uploadPetPhoto(api: Client<ApiPaths>, petId: number, image: Blob, filename = 'photo') {
  return api.POST('/pets/{petId}/photos', {
    params: { path: { petId } },
    // The generated type describes the part as a string (OpenAPI's binary format); the form carries the Blob.
    body: { file: '' },
    bodySerializer: () => {
      const form = new FormData();
      form.append('file', image, filename);
      return form;
    },
  });
}
