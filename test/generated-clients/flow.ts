// A first integration, as a consumer writes it with clients generated from the committed documents by
// openapi-typescript (+ openapi-fetch) and @hey-api/openapi-ts, each with its default options. Only
// type-checked (`.ci/generated-clients`): a document that makes a generator require what the service
// does not, or refuse what it accepts, fails to compile here.
import createClient from 'openapi-fetch';
import type { paths as ApiPaths } from './generated/openapi-typescript/api.js';
import type { paths as MessagesPaths } from './generated/openapi-typescript/messages.js';
import { client as heyApiClient } from './generated/hey-api/api/client.gen.js';
import * as heyApi from './generated/hey-api/api/index.js';
import { client as heyMessagesClient } from './generated/hey-api/messages/client.gen.js';
import * as heyMessages from './generated/hey-api/messages/index.js';

export async function withOpenapiTypescript(key: string): Promise<void> {
  const api = createClient<ApiPaths>({
    baseUrl: 'http://localhost:3000/v1',
    headers: { Authorization: `Bearer ${key}` },
  });
  const messages = createClient<MessagesPaths>({ baseUrl: 'http://localhost:3001' });

  await api.POST('/accounts', { body: { email: 'you@example.com' } });
  const { data: pet } = await api.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
  if (!pet) return;
  await api.PATCH('/pets/{petId}', {
    params: { path: { petId: pet.id } },
    body: { description: null, sex: null, ageGroup: null, size: null, location: null },
  });
  await api.GET('/pets', { params: { query: { limit: 20 } } });
  await api.POST('/store/orders', { body: { petId: pet.id } });
  await api.POST('/webhook-endpoints', { body: { url: 'https://shelter.example/hooks', events: ['pet.created'] } });
  await messages.POST('/messages', { body: { message: 'Rex has found a home!' } });
}

export async function withHeyApi(key: string): Promise<void> {
  heyApiClient.setConfig({ baseUrl: 'http://localhost:3000/v1', auth: key });
  heyMessagesClient.setConfig({ baseUrl: 'http://localhost:3001', auth: key });

  await heyApi.createAccount({ body: { email: 'you@example.com' } });
  const { data: pet } = await heyApi.createPet({ body: { name: 'Rex', categoryId: 1 } });
  if (!pet) return;
  await heyApi.updatePet({
    path: { petId: pet.id },
    body: { description: null, sex: null, ageGroup: null, size: null, location: null },
  });
  await heyApi.listPets({ query: { limit: 20 } });
  await heyApi.placeOrder({ body: { petId: pet.id } });
  await heyMessages.sendMessage({ body: { message: 'Rex has found a home!' } });
}
