import { registerHooks } from 'node:module';
import { join } from 'node:path';

/**
 * Jest's global setup runs outside its module registry, where `moduleNameMapper` does not apply: the
 * libraries it loads import each other as `@app/<library>`, resolved here as the mapper and tsconfig do.
 */
registerHooks({
  resolve: (specifier, context, nextResolve) => {
    const library = /^@app\/([^/]+)$/.exec(specifier)?.[1];
    return nextResolve(library ? join(__dirname, '../../libs', library, 'src') : specifier, context);
  },
});
