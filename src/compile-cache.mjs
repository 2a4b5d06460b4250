// Preloaded by `npm start`, `npm run intake` and the Docker image (`node --import ./src/compile-cache.mjs
// src/cli.ts`) to turn on Node's compile cache before the first .ts file is read. The cache keeps on disk
// the JavaScript that type stripping made of each file; when every file a thread loads is found there, the
// type stripper (swc built to WebAssembly) is never loaded, and its memory is never taken: about 18 MB of
// the API process (README, "Memory"), and more in each thread that loads .ts files, such as the SQLite
// writer. A file missing from the cache is stripped as usual, so a first start (or a changed file) only
// costs that memory again. JavaScript, not TypeScript: a .ts preload would load the stripper to read it.
// The directory is NODE_COMPILE_CACHE's, else Node's default under the system's temporary directory.
import module from 'node:module';

module.enableCompileCache();
