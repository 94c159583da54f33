import { createRoot } from 'react-dom/client';
import { createApp } from './app';
import { createAppServices } from './session/app-services';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(createApp(createAppServices()));
