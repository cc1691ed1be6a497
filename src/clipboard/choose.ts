/**
 * Which clipboard routes can work here, best first. Pure: the environment,
 * platform and "is this command installed" check are all passed in, so every
 * branch is a unit test.
 */

export type Method = 'tmux' | 'osc52' | 'pbcopy' | 'wl-copy' | 'xclip' | 'xsel' | 'clip';

/** Methods that run a program (everything but OSC 52). */
export type NativeMethod = Exclude<Method, 'osc52'>;

function set(value: string | undefined): boolean {
  return value !== undefined && value !== '';
}

export function isRemote(env: NodeJS.ProcessEnv): boolean {
  return set(env.SSH_TTY) || set(env.SSH_CONNECTION) || set(env.SSH_CLIENT);
}

export function insideTmux(env: NodeJS.ProcessEnv): boolean {
  return set(env.TMUX);
}

/** Unix-like platforms whose clipboard lives in an X11 or Wayland session. */
function usesDisplayServer(platform: NodeJS.Platform): boolean {
  return platform !== 'darwin' && platform !== 'win32';
}

/** The system clipboard tools that can reach the user's desktop from here. */
function nativeMethods(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  has: (cmd: string) => boolean,
): NativeMethod[] {
  if (platform === 'darwin') return has('pbcopy') ? ['pbcopy'] : [];
  if (platform === 'win32') return has('clip') ? ['clip'] : [];
  const out: NativeMethod[] = [];
  if (set(env.WAYLAND_DISPLAY) && has('wl-copy')) out.push('wl-copy');
  // X tools need an X server; under Wayland that is XWayland, which sets DISPLAY too.
  if (set(env.DISPLAY)) {
    if (has('xclip')) out.push('xclip');
    if (has('xsel')) out.push('xsel');
  }
  return out;
}

/**
 * Clipboard methods to try, in order:
 * - inside tmux: `tmux load-buffer -w -` first (fills tmux's buffer and, with
 *   `-w`, forwards to the outer terminal's clipboard);
 * - over SSH, or on a Unix without a display: only the terminal can reach the
 *   user's clipboard, so OSC 52;
 * - otherwise the platform's tool (pbcopy; wl-copy, xclip, xsel; clip), with
 *   OSC 52 as the fallback.
 */
export function chooseMethods(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  has: (cmd: string) => boolean,
): Method[] {
  const methods: Method[] = [];
  if (insideTmux(env) && has('tmux')) methods.push('tmux');
  const headless = usesDisplayServer(platform) && !set(env.DISPLAY) && !set(env.WAYLAND_DISPLAY);
  if (!isRemote(env) && !headless) methods.push(...nativeMethods(env, platform, has));
  methods.push('osc52');
  return methods;
}
