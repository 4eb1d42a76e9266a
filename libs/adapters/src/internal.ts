export { stableHash } from './shared/stable-hash';
