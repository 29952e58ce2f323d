// The studio's entry: the shell (sign-in, setup, navigation) and, for each section, how to load its
// screen. A screen's code (and the designer's map, the insights' charts inside it) downloads when the
// section is first opened, so the sign-in page and the versions list load without the rest.
import { StudioApp } from './studio-app.ts';

StudioApp.screens = {
  'studio-versions': () => import('./versions/versions-screen.ts'),
  'studio-designer': () =>
    Promise.all([import('./designer/elements/studio-designer.ts'), import('./preview/preview-panel.ts')]),
  'studio-insights': () => import('./insights/insights-screen.ts'),
  'studio-settings': () => import('./screens/settings/settings-screen.ts'),
};
