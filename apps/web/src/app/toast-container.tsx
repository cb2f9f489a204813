// The unstyled entry never injects a <style> tag, which the CSP (style-src 'self') would
// block; the same styles come from the package's stylesheet, bundled as a file.
import { ToastContainer } from 'react-toastify/unstyled';
import 'react-toastify/ReactToastify.css';

// Spec §9: Alt+T focuses the toasts.
const isToastHotKey = (event: KeyboardEvent) => event.altKey && event.code === 'KeyT';

/** react-toastify's container as GEM sets it up; loaded with the first toast (lib/toast.ts). */
export default function GemToastContainer() {
  return (
    <ToastContainer
      position="top-right"
      autoClose={5000}
      pauseOnHover
      pauseOnFocusLoss
      theme="light"
      hotKeys={isToastHotKey}
    />
  );
}
