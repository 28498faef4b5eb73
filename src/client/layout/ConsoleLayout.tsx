import { Layout, type LayoutProps } from 'react-admin';
import { ConsoleAppBar } from './ConsoleAppBar';
import { ConsoleMenu } from './ConsoleMenu';

/** react-admin's layout with our app bar and the permission-driven menu. */
export function ConsoleLayout({ children }: LayoutProps) {
  return (
    <Layout appBar={ConsoleAppBar} menu={ConsoleMenu}>
      {children}
    </Layout>
  );
}
