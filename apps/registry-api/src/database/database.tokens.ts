/** Nest injection token of the open `Database` (see database.ts). */
export const DATABASE = Symbol('toolgate.database');
/** Nest injection token of the validated `AppConfig`. */
export const APP_CONFIG = Symbol('toolgate.app-config');
