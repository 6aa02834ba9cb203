import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app');
if (root !== null) render(<App win={window} fetchFn={window.fetch.bind(window)} />, root);
