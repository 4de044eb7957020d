// class-transformer ships the storage of its decorators' metadata without a declaration at the path Node loads it
// from; its own declaration lives under types/.
declare module 'class-transformer/cjs/storage.js' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage.js';
}
