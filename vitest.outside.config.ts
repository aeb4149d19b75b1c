import { defineConfig } from 'vitest/config';
import { OUTSIDE, SHARED } from './vitest.config.js';

export default defineConfig({ test: { ...SHARED, include: OUTSIDE } });
