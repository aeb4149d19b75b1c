export { BODY_LIMIT, buildServer, listen, type ServerOptions } from './app.js';
