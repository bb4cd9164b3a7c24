export { teardown as default } from './shared-runtime';
