// Electron main entry (placeholder until issue 3's main process lands).
import { app, BrowserWindow } from 'electron';

app.whenReady().then(() => {
  new BrowserWindow({ width: 1280, height: 800 });
});
