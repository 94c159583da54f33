/** Hands bytes made in the page to the browser as a download named `fileName`. */
export const saveFile = (file: { bytes: BlobPart; contentType: string; fileName: string }): void => {
  const url = URL.createObjectURL(new Blob([file.bytes], { type: file.contentType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  // Attached while clicked: some browsers ignore a click on a link outside the document.
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
};
