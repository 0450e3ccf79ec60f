import { Module, Type } from '@nestjs/common';
import { settingsProvider } from './settings';

const MODULES = new Map<Type, Type>();

/**
 * The module that provides and exports one settings schema. A context imports it (and exports it
 * when other modules inject its settings); it is the same module each time, so the settings are read
 * once per process.
 */
export function settingsModule(schema: Type): Type {
  let module = MODULES.get(schema);
  if (!module) {
    module = class {};
    Object.defineProperty(module, 'name', { value: `${schema.name}Module` });
    Module({ providers: [settingsProvider(schema)], exports: [schema] })(module);
    MODULES.set(schema, module);
  }
  return module;
}
