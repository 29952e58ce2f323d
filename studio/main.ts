// The studio's entry: defines its elements. Served only at /studio, behind its own strict CSP.
// Each section's screen defines its element here; the shell shows a placeholder for one not (yet) defined.
import './screens/settings/settings-screen.ts';
import './app/studio-app.ts';
import './versions/versions-screen.ts';
import './designer/elements/studio-designer.ts';
import './preview/preview-panel.ts';
import './insights/insights-screen.ts';
