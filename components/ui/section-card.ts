/** The white card a page section sits in (the domain page's panels, an import's progress). */
export const sectionCard = 'space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5';
