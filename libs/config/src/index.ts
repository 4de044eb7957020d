export { AppConfig, SIMULATOR_EFI_CLIENT_SECRET, SIMULATOR_STRIPE_SECRET_KEY, SIMULATOR_STRIPE_WEBHOOK_SECRET } from './app-config.js';
export { loadConfig, loadConfigOrExit, ConfigError } from './load-config.js';
export { STRIPE_API_VERSION_PINNED } from './provider-settings.js';
export { ConfigModule } from './config.module.js';
export { redisTopologyOf, type RedisNode, type RedisSettings, type RedisTopology } from './rules/redis-topology.js';
