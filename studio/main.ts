// The studio's entry: defines its elements. Served only at /studio, behind its own strict CSP.
import './app/studio-app.ts';
import './designer/elements/studio-designer.ts';
import './versions/versions-screen.ts';
