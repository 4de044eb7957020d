export { AppConfig } from './app-config.js';
export { loadConfig, ConfigError } from './load-config.js';
export { ConfigModule } from './config.module.js';
