import type { DynamicModule, ForwardReference, Provider, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { EnvironmentVariables, InvalidSettingsError, isSettingsSchema, readSettings } from './settings';

type ModuleImport = Type | DynamicModule | Promise<DynamicModule> | ForwardReference;

const metadata = <T>(key: string, module: Type): T[] => (Reflect.getMetadata(key, module) as T[] | undefined) ?? [];

/** Every settings schema provided in a module's graph of imports, found without instantiating anything. */
export async function settingsSchemasOf(root: ModuleImport): Promise<Type[]> {
  const schemas = new Set<Type>();
  const seen = new Set<unknown>();
  const visit = async (entry: ModuleImport | undefined): Promise<void> => {
    const found = entry && 'forwardRef' in entry ? entry.forwardRef() : await entry;
    if (!found || seen.has(found)) return;
    seen.add(found);
    const dynamic = 'module' in found ? (found as DynamicModule) : undefined;
    const module = dynamic?.module ?? (found as Type);
    const providers = [...metadata<Provider>(MODULE_METADATA.PROVIDERS, module), ...(dynamic?.providers ?? [])];
    for (const provider of providers) {
      const token = typeof provider === 'function' ? provider : provider.provide;
      if (isSettingsSchema(token)) schemas.add(token);
    }
    const imports = [...metadata<ModuleImport>(MODULE_METADATA.IMPORTS, module), ...(dynamic?.imports ?? [])];
    for (const imported of imports) await visit(imported);
  };
  await visit(root);
  return [...schemas];
}

/**
 * Reads every settings schema an app's modules provide, before Nest starts, and throws one error
 * naming every bad setting of all of them: an app refuses to start on any, rather than on the first
 * schema Nest happens to build.
 */
export async function checkSettings(modules: ModuleImport[], variables: EnvironmentVariables): Promise<void> {
  const schemas = new Set((await Promise.all(modules.map(settingsSchemasOf))).flat());
  const violations = [...schemas].flatMap((schema) => readSettings(schema, variables).violations);
  if (violations.length > 0) throw new InvalidSettingsError(violations);
}
