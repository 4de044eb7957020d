export { AppConfig } from './app-config.js';
export { loadConfig, loadConfigOrExit, ConfigError } from './load-config.js';
export { ConfigModule } from './config.module.js';
