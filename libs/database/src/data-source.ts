import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '@app/config';
import { dataSourceOptions } from './data-source-options.js';

/** The DataSource the TypeORM CLI loads (`-d dist/libs/database/src/data-source.js`). */
export default new DataSource(dataSourceOptions(loadConfig().DATABASE_URL));
