import { Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config.js';
import { loadConfig } from './load-config.js';

/** The validated config as an injectable: `constructor(private readonly config: AppConfig)`. */
@Global()
@Module({
  providers: [{ provide: AppConfig, useFactory: () => loadConfig() }],
  exports: [AppConfig],
})
export class ConfigModule {}
