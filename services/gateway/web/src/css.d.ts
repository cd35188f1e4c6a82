/** The widget imports its styles as text (esbuild's text loader) to adopt them in its shadow root. */
declare module '*.css' {
  const text: string;
  export default text;
}
